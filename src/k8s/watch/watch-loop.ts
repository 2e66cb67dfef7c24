import type { Watch } from "@kubernetes/client-node";
import { stringAt } from "../../internal/safe-read.js";
import { sleep } from "../time.js";
import { changeEvent } from "./object-store.js";
import { syncList, type ListSync } from "./sync-list.js";
import { watchStream } from "./watch-stream.js";

/** First and longest wait after a failed request (client-node 2's `ListWatch` and client-go back off alike). */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** A watch the server closes this soon without sending a line is waited on as a failure would be. */
const QUICK_CLOSE_MS = 1_000;

/** A running watch's state, read by the accessors of the watch object. @internal */
export interface WatchState {
  /** The resource version to resume from; `""` until listed, and again once the server answered 410. */
  resourceVersion: string;
}

/** What the loop runs on. @internal */
export interface WatchLoop<T> extends ListSync<T> {
  readonly watch: Watch;
  readonly path: string;
  /** Seconds the server keeps each watch request open. */
  readonly timeoutSeconds: number;
  readonly state: WatchState;
}

/**
 * Lists, then watches from the list's resource version, until `signal` aborts: a watch the server
 * closes is resumed from the last resource version it delivered (a change or a bookmark), a 410
 * Gone is answered by a relist, and a failed request is retried after a doubling wait (1 s to
 * 30 s), announced as a `retrying` event. Only the first list announces `synced`; later ones `relisted`.
 *
 * @internal
 */
export async function runWatchLoop<T>(loop: WatchLoop<T>, signal: AbortSignal): Promise<void> {
  const { state, store, emit } = loop;
  const query = { ...loop.query, allowWatchBookmarks: true, timeoutSeconds: loop.timeoutSeconds };
  const handlers = {
    change(change: "added" | "modified" | "deleted", raw: unknown): void {
      const namespace = stringAt(raw, "metadata", "namespace");
      const name = stringAt(raw, "metadata", "name");
      const stored = loop.parse(raw);
      if (change === "deleted") store.delete(namespace, name);
      else store.set(namespace, name, stored);
      emit(changeEvent(change, stored));
    },
    resourceVersion(resourceVersion: string): void {
      state.resourceVersion = resourceVersion;
    },
  };
  let listed = false;
  let failures = 0;
  while (!signal.aborted) {
    let failure: unknown;
    try {
      if (state.resourceVersion === "") {
        state.resourceVersion = await syncList(loop, signal);
        emit({ type: listed ? "relisted" : "synced", resourceVersion: state.resourceVersion });
        listed = true;
        failures = 0;
      }
      const started = Date.now();
      const end = await watchStream(loop.watch, loop.path, { ...query, resourceVersion: state.resourceVersion }, handlers, signal);
      if (end.lines > 0) failures = 0;
      if (end.reason === "expired") state.resourceVersion = "";
      else if (end.reason === "failed") failure = end.error;
      else if (end.lines === 0 && Date.now() - started < QUICK_CLOSE_MS) await sleep(retryDelay(++failures), signal);
    } catch (err) {
      failure = err;
    }
    if (failure === undefined || stopped(signal)) continue;
    const delayMs = retryDelay(++failures);
    emit({ type: "retrying", error: failure, delayMs });
    await sleep(delayMs, signal);
  }
}

/** Read through a call: the loop's condition narrowed `signal.aborted` to `false`, but a request may have seen it abort since. */
const stopped = (signal: AbortSignal): boolean => signal.aborted;

function retryDelay(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(failures - 1, 0), MAX_RETRY_MS);
}
