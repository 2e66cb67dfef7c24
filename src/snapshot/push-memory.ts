/** Resident memory the push budget leaves to Node itself (V8 heap, code, the HTTP client), as the pull's reserve does. */
export const PUSH_RUNTIME_RESERVE = 128 << 20;

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
  const fits = Math.floor((budget - PUSH_RUNTIME_RESERVE - chunkSize) / (BUFFERS_PER_CHUNK * chunkSize));
  return Math.max(1, Math.min(workers, fits));
}
