import fs, { WriteStream } from "node:fs";
import { Socket } from "node:net";
import type { Writable } from "node:stream";

const WRITE_METHODS = ["write", "_write", "_writev", "_final"] as const;

/** The `fs` module a `WriteStream` writes through: Node's, unless `options.fs` replaced it. */
function writesThroughNodeFs(out: WriteStream): boolean {
  const key = Object.getOwnPropertySymbols(out).find((s) => s.description === "kFs");
  return key !== undefined && (out as unknown as Record<symbol, unknown>)[key] === fs;
}

/**
 * Whether Node itself hands every byte written to `out` to the kernel and then lets go of the
 * buffer: a `fs.WriteStream` over Node's own `fs`, or a `net.Socket` (a pipe, a child's stdin),
 * of exactly those classes, with none of their write methods replaced. Only then may a buffer be
 * freed or reused once its write's callback has run; any other writable, a subclass included,
 * may keep the very chunks it is given (a `PassThrough` does, and so may a user's `_write`).
 *
 * @example
 * ```ts
 * isKernelSink(createWriteStream("/dev/null")); // => true
 * isKernelSink(new PassThrough()); // => false
 * isKernelSink(new (class extends Socket {})()); // => false: a subclass may keep its chunks
 * ```
 */
export function isKernelSink(out: Writable): boolean {
  const proto: unknown = Object.getPrototypeOf(out);
  if (proto !== WriteStream.prototype && proto !== Socket.prototype) return false;
  const own = proto as Record<string, unknown>;
  const methods = out as unknown as Record<string, unknown>;
  if (WRITE_METHODS.some((m) => Object.hasOwn(out, m) || methods[m] !== own[m])) return false;
  return proto === Socket.prototype || writesThroughNodeFs(out as WriteStream);
}
