import { stringAt } from "../../internal/safe-read.js";
import { sleep } from "../time.js";
import { changeEvent, storedResourceVersion } from "./object-store.js";
import { syncList, type ListSync } from "./sync-list.js";
import { WatchBackoff } from "./watch-backoff.js";
import type { RefusalError, WatchRequester } from "./watch-requester.js";
import { watchStream, type StreamHandlers } from "./watch-stream.js";

/** A watch the server closes sooner than this after it was sent is waited on as a failure would be (client-go's "very short watch"). */
const QUICK_CLOSE_MS = 1_000;

/** A running watch's state, read by the accessors of the watch object. @internal */
export interface WatchState {
  /** The resource version to resume from; `""` until listed, and again once the watch must list again. */
  resourceVersion: string;
}

/** What the loop runs on. @internal */
export interface WatchLoop<T> extends ListSync<T> {
  /** Sends one watch request. */
  readonly send: WatchRequester;
  /** The error a refusal or an error event becomes. */
  readonly refused: RefusalError;
  /** The API server's URL, as the kubeconfig's cluster gives it. */
  readonly server: string;
  readonly path: string;
  /** Seconds the server keeps each watch request open. */
  readonly timeoutSeconds: number;
  /** The longest event line taken. */
  readonly maxEventBytes: number;
  readonly state: WatchState;
}

/**
 * The longest a watch request may stay open: its `timeoutSeconds`, plus a tenth of it (at least a
 * second) for the server's and the network's delays.
 *
 * @internal
 */
export function watchDeadlineMs(timeoutSeconds: number): number {
  return timeoutSeconds * 1_000 + Math.max(1_000, timeoutSeconds * 100);
}

/**
 * Lists, then watches from the list's resource version, until `signal` aborts: a watch the server
 * closes is resumed from the last resource version it delivered (a change or a bookmark); a 410
 * Gone, or a line that is not an event, is answered by a relist; a failed request (or one kept
 * open past its deadline) is retried, announced as a `retrying` event. Every wait is client-go's
 * reflector backoff ({@link WatchBackoff}); a 410 and a watch closed within a second wait too,
 * unannounced. Only the first list announces `synced`; later ones `relisted`.
 *
 * @internal
 */
export async function runWatchLoop<T>(loop: WatchLoop<T>, signal: AbortSignal, backoff = new WatchBackoff()): Promise<void> {
  const { state, store, emit } = loop;
  const query = { ...loop.query, allowWatchBookmarks: true, timeoutSeconds: loop.timeoutSeconds };
  const handlers: StreamHandlers = {
    change(change, raw) {
      const namespace = stringAt(raw, "metadata", "namespace");
      const name = stringAt(raw, "metadata", "name");
      const held = store.get(namespace, name);
      if (repeats(change, held, raw)) return;
      const stored = loop.parse(raw);
      if (change === "deleted") store.delete(namespace, name);
      else store.set(namespace, name, stored);
      emit(changeEvent(change, stored));
    },
    resourceVersion(resourceVersion) {
      state.resourceVersion = resourceVersion;
    },
  };
  let listed = false;
  while (!signal.aborted) {
    let failure: unknown;
    let pause = false;
    try {
      if (state.resourceVersion === "") {
        state.resourceVersion = await syncList(loop, signal);
        emit({ type: listed ? "relisted" : "synced", resourceVersion: state.resourceVersion });
        listed = true;
      }
      const started = Date.now();
      const url = watchURL(loop.server, loop.path, { ...query, resourceVersion: state.resourceVersion });
      const request = {
        send: loop.send,
        refused: loop.refused,
        url,
        maxEventBytes: loop.maxEventBytes,
        deadlineMs: watchDeadlineMs(loop.timeoutSeconds),
      };
      const end = await watchStream(request, handlers, signal);
      switch (end.reason) {
        case "expired":
          state.resourceVersion = "";
          pause = true;
          break;
        case "corrupt":
          state.resourceVersion = "";
          failure = end.error;
          break;
        case "failed":
          failure = end.error;
          break;
        case "closed":
          if (Date.now() - started < QUICK_CLOSE_MS) pause = true;
          else backoff.reset();
      }
    } catch (err) {
      failure = err;
    }
    if (stopped(signal) || (failure === undefined && !pause)) continue;
    const delayMs = backoff.next();
    if (failure !== undefined) emit({ type: "retrying", error: failure, delayMs });
    await sleep(delayMs, signal);
  }
}

/** Whether a change says what the watch holds already: the same object at the same resource version, or the deletion of one it does not hold. */
function repeats(change: "added" | "modified" | "deleted", held: unknown, raw: unknown): boolean {
  if (held === undefined) return change === "deleted";
  if (change === "deleted") return false;
  const resourceVersion = stringAt(raw, "metadata", "resourceVersion");
  return resourceVersion !== "" && storedResourceVersion(held) === resourceVersion;
}

/** The watch URL, its query in client-node's `Watch` order: `watch=true` first, then the rest as given. */
function watchURL(server: string, path: string, query: Record<string, string | number | boolean | undefined>): URL {
  const url = new URL(server + path);
  url.searchParams.set("watch", "true");
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/** Read through a call: the loop's condition narrowed `signal.aborted` to `false`, but a request may have seen it abort since. */
const stopped = (signal: AbortSignal): boolean => signal.aborted;
