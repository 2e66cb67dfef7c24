/** Resident memory a push's or pull's budget leaves to Node itself (V8 heap, code, the HTTP client), not to chunk buffers. */
export const RUNTIME_RESERVE = 128 << 20;

/**
 * Buffers alive per chunk in flight, in chunk sizes: the raw chunk (kept for reuse once
 * compressed) and the compressed frame, written in place into one output buffer and sent by fetch
 * without a copy. The frame is counted at the chunk size, as incompressible data has it.
 */
export const BUFFERS_PER_CHUNK = 2;

/**
 * How many chunks a v2 push compresses and uploads at once: Go's worker count, lowered (to 1 at
 * least) until the runtime reserve, the chunk being read and {@link BUFFERS_PER_CHUNK} buffers per
 * chunk in flight fit `budget` bytes, so the process's peak RSS stays within the budget.
 */
export function chunksInFlight(workers: number, chunkSize: number, budget: number): number {
  const fits = Math.floor((budget - RUNTIME_RESERVE - chunkSize) / (BUFFERS_PER_CHUNK * chunkSize));
  return Math.max(1, Math.min(workers, fits));
}

/**
 * How many chunks a windowed pull fetches and decodes ahead: Go's window (`window`, at least 2),
 * lowered (to 1 at least) until the runtime reserve, the chunks ahead (`inputCap` compressed plus
 * `outputCap` decoded bytes each), the chunk being written and one chunk more fit `budget` bytes.
 * The chunk more is the one written that the output has not taken yet, whose buffer is not free
 * for the next chunk; with any other writable than a file or socket, it is what was written and
 * not collected yet (`BENCHMARKS.md`, "Snapshot internals").
 */
export function prefetchDepth(window: number, inputCap: number, outputCap: number, budget: number): number {
  const depth = Math.floor((budget - RUNTIME_RESERVE - 2 * outputCap) / (inputCap + outputCap));
  return Math.min(window, Math.max(depth, 1));
}
