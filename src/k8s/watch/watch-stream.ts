import type { Readable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { stringAt } from "../../internal/safe-read.js";
import { statusCode } from "../api-errors.js";
import { CappedLines } from "./capped-lines.js";
import { parseEventLine } from "./event-line.js";
import type { WatchChange } from "./watch-event.js";
import type { RefusalError, WatchRequester } from "./watch-requester.js";

/** How one watch request ended. @internal */
export type StreamEnd =
  /** The server closed it (its timeout), or the signal aborted: resume from the resource version. */
  | { readonly reason: "closed"; readonly lines: number }
  /** 410 Gone: the server no longer has the resource version; list again. */
  | { readonly reason: "expired"; readonly lines: number }
  /** The request failed or was dropped: resume from the resource version after a wait. */
  | { readonly reason: "failed"; readonly lines: number; readonly error: unknown }
  /** A line past the cap, not JSON, or not an event: what it held is lost, so list again after a wait. */
  | { readonly reason: "corrupt"; readonly lines: number; readonly error: CocoonError };

/** What a watch request reports, line by line. @internal */
export interface StreamHandlers {
  /** An object changed. Must not throw. */
  change(change: WatchChange, raw: unknown): void;
  /** The resource version to resume from moved on (every change, and every bookmark). */
  resourceVersion(resourceVersion: string): void;
}

/** One watch request: where, how it is sent, and its bounds. @internal */
export interface StreamRequest {
  readonly send: WatchRequester;
  readonly url: URL;
  /** The longest line (one event) taken. */
  readonly maxEventBytes: number;
  /** The request is dropped this long after it was sent, answered or not, whatever it sent since. */
  readonly deadlineMs: number;
  /** The error a refusal or an error event becomes. */
  readonly refused: RefusalError;
}

/** Bytes of a refusal's body read for its `Status`. */
const MAX_STATUS_BYTES = 64 * 1024;

const CHANGES: Readonly<Record<string, WatchChange>> = { ADDED: "added", MODIFIED: "modified", DELETED: "deleted" };

/**
 * Runs one watch request until it ends; never rejects. Aborting `signal` ends it as `closed` and
 * closes its connection, whether the server answered yet or not.
 *
 * @internal
 */
export function watchStream(request: StreamRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<StreamEnd> {
  if (signal.aborted) return Promise.resolve({ reason: "closed", lines: 0 });
  return new Promise((resolve) => {
    let lines = 0;
    let ended = false;
    let body: Readable | undefined;
    const controller = new AbortController();
    const end = (
      how: { reason: "closed" | "expired" } | { reason: "failed"; error: unknown } | { reason: "corrupt"; error: CocoonError },
    ): void => {
      if (ended) return;
      ended = true;
      clearTimeout(deadline);
      signal.removeEventListener("abort", onAbort);
      controller.abort();
      body?.destroy();
      resolve({ ...how, lines });
    };
    const onAbort = (): void => end({ reason: "closed" });
    signal.addEventListener("abort", onAbort, { once: true });
    const deadline = setTimeout(() => end({ reason: "failed", error: stalled(request.deadlineMs) }), request.deadlineMs);
    const line = (bytes: Buffer): boolean => {
      const event = parseEventLine(bytes);
      if (event === undefined) return true;
      lines++;
      if (event instanceof CocoonError) {
        end({ reason: "corrupt", error: event });
        return false;
      }
      const { type, object } = event;
      if (type === "ERROR") {
        end(statusCode(object) === 410 ? { reason: "expired" } : { reason: "failed", error: statusError(object, request.refused) });
        return false;
      }
      const change = CHANGES[type];
      if (change !== undefined) handlers.change(change, object);
      const resourceVersion = stringAt(object, "metadata", "resourceVersion");
      if (resourceVersion !== "") handlers.resourceVersion(resourceVersion);
      return !ended;
    };
    const lineSplitter = new CappedLines(request.maxEventBytes);
    const read = (response: Readable): void => {
      response.on("data", (chunk: Buffer) => {
        if (ended) return;
        if (lineSplitter.push(chunk, line) === "too-long") end({ reason: "corrupt", error: tooLong(request.maxEventBytes) });
      });
      response.on("end", () => {
        end(lineSplitter.pendingBytes > 0 ? { reason: "failed", error: closedEarly(lineSplitter.pendingBytes) } : { reason: "closed" });
      });
      response.on("error", (error: unknown) => end({ reason: "failed", error }));
      response.on("close", () => end({ reason: "failed", error: closedEarly(lineSplitter.pendingBytes) }));
    };
    request.send(request.url, controller.signal).then(
      (response) => {
        body = response.body;
        if (ended) {
          body.destroy();
          return;
        }
        if (response.statusCode === 200) read(body);
        else
          void refusal(response.statusCode, body, request.refused).then((error) =>
            end(statusCode(error) === 410 ? { reason: "expired" } : { reason: "failed", error }),
          );
      },
      (error: unknown) => end({ reason: "failed", error }),
    );
  });
}

/** A refusal as the requester's error, its body's `Status` read (up to 64 KiB), so `statusCode(err)` and friends read it. */
async function refusal(code: number, body: Readable, refused: RefusalError): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      parts.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= MAX_STATUS_BYTES) break;
    }
  } catch {
    // The status code says enough.
  }
  body.destroy();
  let status: unknown;
  try {
    status = JSON.parse(Buffer.concat(parts).subarray(0, MAX_STATUS_BYTES).toString("utf8"));
  } catch {
    status = undefined;
  }
  return refused(code, stringAt(status, "message") || `watch request answered ${code}`, status);
}

/** An error event's `Status` as the requester's error, so `statusCode(err)` and friends read it. */
function statusError(status: unknown, refused: RefusalError): unknown {
  const message = stringAt(status, "message") || "watch error event";
  return refused(statusCode(status) ?? 500, message, status);
}

const tooLong = (max: number): CocoonError =>
  new CocoonError("ERR_WATCH_STREAM", `the API server sent a watch event longer than ${max} bytes: dropped unread, listing again`);

const stalled = (ms: number): CocoonError =>
  new CocoonError("ERR_WATCH_STREAM", `the API server kept a watch request open ${ms} ms, past its timeoutSeconds: dropped, asking again`);

const closedEarly = (pending: number): CocoonError =>
  new CocoonError(
    "ERR_WATCH_STREAM",
    pending > 0
      ? `the watch connection ended inside an event (${pending} bytes of it came): asking again`
      : "the watch connection closed before its response ended: asking again",
  );
