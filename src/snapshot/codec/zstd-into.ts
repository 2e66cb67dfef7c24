// The one adapter to Node zlib's private parts (`BENCHMARKS.md`, "Adapters to peers' private
// parts"): `_handle`, `_writeState` and `_finishFlushFlag` of its zstd stream, checked on first use.
import type { Transform } from "node:stream";
import { nodeZstd } from "./node-zstd.js";
import { ZstdMessage } from "./zstd-errors.js";

/**
 * The zlib handle under Node's zstd stream, as `lib/zlib.js` drives it (the same on Node 22, 24
 * and 26): `write` decodes on the thread pool into the output range it is given, leaves the bytes
 * it did not fill and the input it did not read in the stream's `_writeState`, then runs `cb` by
 * way of the stream's own callback, which hands what it decoded to `push`.
 */
interface ZstdHandle {
  write(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  buffer: Uint8Array | null;
  cb: () => void;
  availInBefore: number;
  availOutBefore: number;
  inOff: number;
  flushFlag: number;
}

/** The parts of Node's zstd stream that {@link decodeFrameInto} uses. */
interface ZstdStream extends Transform {
  readonly _handle: ZstdHandle | null;
  readonly _writeState: Uint32Array;
  readonly _finishFlushFlag: number;
  push(chunk: unknown): boolean;
}

/** The smallest output buffer Node allows; the stream's own, which this decoding never fills. */
const MIN_CHUNK = 64;

function openDecoder(windowLog: number): ZstdStream {
  return nodeZstd().createZstdDecompress({
    chunkSize: MIN_CHUNK,
    params: { [nodeZstd().constants.ZSTD_d_windowLogMax]: windowLog },
  }) as ZstdStream;
}

/** Whether `stream` has, with their types, the private members {@link decodeFrameInto} reads. */
function isHandleShaped(stream: unknown): boolean {
  const members = stream as Partial<ZstdStream> | null;
  return (
    typeof members?._handle?.write === "function" &&
    members._writeState instanceof Uint32Array &&
    members._writeState.length >= 1 &&
    typeof members._finishFlushFlag === "number"
  );
}

let shaped: boolean | undefined;

/**
 * Whether this Node's zstd stream has the handle {@link decodeFrameInto} drives; checked once, on
 * a probe stream. Where it does not, callers decode with Node's public calls, into buffers Node
 * allocates.
 */
export function canDecodeInto(): boolean {
  if (shaped === undefined) {
    const probe = openDecoder(10);
    shaped = isHandleShaped(probe);
    probe.destroy();
  }
  return shaped;
}

/**
 * Gives {@link canDecodeInto} the verdict it would reach on `probe` in place of Node's stream;
 * `undefined` forgets it, so the next call probes Node again. Tests force the public path with it.
 *
 * @internal
 */
export function judgeDecodeInto(probe: unknown): void {
  shaped = probe === undefined ? undefined : isHandleShaped(probe);
}

/**
 * Decodes one zstd frame that declares `size` bytes of content into `out`, which must have room
 * for `size + 1` bytes: a frame that produces more than it declared fills that last byte and is
 * refused as too large, as is one whose window needs more than `2^windowLog`. Returns the bytes
 * decoded, which the caller checks against `size` (fewer: the frame ended early).
 *
 * Node's public zstd calls allocate a fresh buffer for every piece they decode; at the rate a
 * pull decodes, those buffers cost a page fault per page and a full collection every few chunks.
 * This drives the stream's handle the way `lib/zlib.js` does, with the caller's buffer as the
 * output, so a pull can decode every chunk into the same few buffers. Only for
 * {@link canDecodeInto}.
 */
export function decodeFrameInto(frame: Uint8Array, out: Uint8Array, windowLog: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = openDecoder(windowLog);
    const handle = stream._handle as ZstdHandle;
    const state = stream._writeState;
    let overflow = false;
    stream.push = (): boolean => {
      // The output is full: zlib would go on into the stream's own buffer. A destroyed stream stops.
      if (state[0] === 0) {
        overflow = true;
        stream.destroy();
      }
      return true;
    };
    stream.once("error", reject);
    handle.buffer = frame;
    handle.inOff = 0;
    handle.availInBefore = frame.length;
    handle.availOutBefore = out.length;
    handle.flushFlag = stream._finishFlushFlag;
    handle.cb = (): void => {
      const decoded = out.length - (state[0] as number);
      stream.destroy();
      if (overflow) reject(new Error(ZstdMessage.TooLarge));
      else resolve(decoded);
    };
    handle.write(stream._finishFlushFlag, frame, 0, frame.length, out, 0, out.length);
  });
}
