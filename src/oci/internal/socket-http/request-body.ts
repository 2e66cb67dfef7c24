import type { Socket } from "node:net";
import type { ReadableStreamReadResult } from "node:stream/web";
import { takeStreamSource } from "../body-stream.js";
import { ProtocolError } from "./response-head.js";
import type { HeaderFields } from "./header-fields.js";

/** A request body `socketFetch` sends itself, with its length. */
export interface RequestBody {
  readonly bytes: Uint8Array | ReadableStream<Uint8Array>;
  readonly length: number;
}

/**
 * The body of `init` as this client sends it: a `Uint8Array` (its length), or a stream of exactly
 * the `Content-Length` bytes the request declares; `null` for none; `undefined` for a body it
 * leaves to the fallback.
 */
export function requestBody(init: RequestInit | undefined, headers: HeaderFields): RequestBody | null | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return null;
  const declared = headers.get("content-length");
  const length = declared !== null && /^\d{1,15}$/u.test(declared) ? Number(declared) : undefined;
  if (body instanceof Uint8Array) return length === undefined || length === body.length ? { bytes: body, length: body.length } : undefined;
  return body instanceof ReadableStream && length !== undefined ? { bytes: body as ReadableStream<Uint8Array>, length } : undefined;
}

/** The pieces of a stream body: its source itself when it is a `streamBody` stream, else its reader. */
interface Pieces {
  next(): Promise<IteratorResult<Uint8Array> | ReadableStreamReadResult<Uint8Array>>;
  stop(): Promise<unknown>;
  release(): void;
}

function piecesOf(stream: ReadableStream<Uint8Array>): Pieces {
  const source = takeStreamSource(stream);
  if (source !== undefined) return { next: () => source.next(), stop: async () => source.return?.(), release: () => undefined };
  const reader = stream.getReader();
  return { next: () => reader.read(), stop: () => reader.cancel(), release: () => reader.releaseLock() };
}

/**
 * Writes a stream body of `length` bytes to `socket`, a piece at a time, each once the socket took
 * the one before. Once the socket is gone (an answer, a failure, an abort) it stops and cancels the
 * stream, so that its source stops too. Rejects with the stream's own error, or a
 * {@link ProtocolError} for a body shorter or longer than `length`.
 */
export async function writeStreamBody(socket: Socket, stream: ReadableStream<Uint8Array>, length: number): Promise<void> {
  let sent = 0;
  let complete = false;
  const pieces = piecesOf(stream);
  try {
    for (;;) {
      if (isClosed(socket)) return;
      const next = await pieces.next();
      if (next.done === true) break;
      sent += next.value.length;
      if (sent > length) throw new ProtocolError(`request body longer than its Content-Length ${length}`);
      if (isClosed(socket)) return;
      if (!socket.write(next.value)) await drained(socket);
    }
    if (sent < length) throw new ProtocolError(`request body of ${sent} bytes, shorter than its Content-Length ${length}`);
    complete = true;
  } finally {
    // Cut short (the socket gone, the body refused or failed): its source is told to stop.
    if (!complete) await pieces.stop().catch(() => undefined);
    pieces.release();
  }
}

/** Whether the connection is gone: a call, since it changes across an `await`. */
const isClosed = (socket: Socket): boolean => socket.destroyed;

/** Resolves once the socket's buffer drained, or it closed. */
function drained(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    const done = (): void => {
      socket.off("drain", done);
      socket.off("close", done);
      resolve();
    };
    socket.on("drain", done);
    socket.on("close", done);
  });
}
