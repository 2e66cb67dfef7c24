import type { Readable } from "node:stream";
import type { Lister } from "./listers.js";

/** The answer to one watch request: its status and its body as bytes, read by the caller. @internal */
export interface WatchResponse {
  readonly statusCode: number;
  /** Destroying it closes the request's connection. */
  readonly body: Readable;
}

/** Sends one watch request; `signal` ends it, answered or not, and closes its connection. @internal */
export type WatchRequester = (url: URL, signal: AbortSignal) => Promise<WatchResponse>;

/** The error a refused watch request, or a watch error event, becomes: what the lists of the same client throw. @internal */
export type RefusalError = (code: number, message: string, status: unknown) => unknown;

/** How a watch reaches the API server: its lists, its watch requests and their errors. @internal */
export interface WatchTransport {
  readonly list: Lister;
  readonly send: WatchRequester;
  /** The API server's URL the watch paths are resolved against. */
  readonly server: string;
  readonly refused: RefusalError;
}
