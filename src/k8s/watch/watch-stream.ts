import { ApiException, type Watch } from "@kubernetes/client-node";
import { stringAt } from "../../internal/safe-read.js";
import { statusCode } from "../api-errors.js";
import type { WatchChange } from "./watch-event.js";

/** How one watch request ended. @internal */
export type StreamEnd =
  /** The server closed it (its timeout), or client-node 2's inactivity timeout did: resume from the resource version. */
  | { readonly reason: "closed"; readonly lines: number }
  /** 410 Gone: the server no longer has the resource version; list again. */
  | { readonly reason: "expired"; readonly lines: number }
  | { readonly reason: "failed"; readonly lines: number; readonly error: unknown };

/** What a watch request reports, line by line. @internal */
export interface StreamHandlers {
  /** An object changed. Must not throw: client-node's `Watch` swallows what a callback throws. */
  change(change: WatchChange, raw: unknown): void;
  /** The resource version to resume from moved on (every change, and every bookmark). */
  resourceVersion(resourceVersion: string): void;
}

const CHANGES: Readonly<Record<string, WatchChange>> = { ADDED: "added", MODIFIED: "modified", DELETED: "deleted" };

/**
 * Runs one watch request through client-node's `Watch` until it ends; never rejects. Aborting
 * `signal` ends it as `closed`.
 *
 * @internal
 */
export function watchStream(
  watch: Watch,
  path: string,
  query: Record<string, string | number | boolean>,
  handlers: StreamHandlers,
  signal: AbortSignal,
): Promise<StreamEnd> {
  return new Promise((resolve) => {
    let lines = 0;
    let controller: AbortController | undefined;
    let ended = false;
    const end = (how: { reason: "closed" | "expired" } | { reason: "failed"; error: unknown }): void => {
      if (ended) return;
      ended = true;
      signal.removeEventListener("abort", onAbort);
      controller?.abort();
      resolve({ ...how, lines });
    };
    const onAbort = (): void => end({ reason: "closed" });
    signal.addEventListener("abort", onAbort, { once: true });
    const line = (type: string, object: unknown): void => {
      if (ended) return;
      lines++;
      const change = CHANGES[type];
      if (change !== undefined) handlers.change(change, object);
      if (type === "ERROR") {
        end(statusCode(object) === 410 ? { reason: "expired" } : { reason: "failed", error: statusError(object) });
        return;
      }
      const resourceVersion = stringAt(object, "metadata", "resourceVersion");
      if (resourceVersion !== "") handlers.resourceVersion(resourceVersion);
    };
    const done = (err: unknown): void => {
      if (err === null || err === undefined || (err as { name?: unknown }).name === "TimeoutError") end({ reason: "closed" });
      else end(statusCode(err) === 410 ? { reason: "expired" } : { reason: "failed", error: err });
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    watch.watch(path, query, line, done).then(
      (started) => {
        controller = started;
        if (ended) started.abort();
      },
      (err: unknown) => end({ reason: "failed", error: err }),
    );
  });
}

/** An error event's `Status` as client-node's `ApiException`, so `statusCode(err)` and friends read it. */
function statusError(status: unknown): ApiException<unknown> {
  const message = stringAt(status, "message") || "watch error event";
  return new ApiException(statusCode(status) ?? 500, message, status, {});
}
