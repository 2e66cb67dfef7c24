import { prefetchDepth } from "../io/memory-budget.js";
import type { EncodedFile } from "./import-entries.js";

const MAX_BUFFERED_CHUNK = 1 << 30;

/** How a v2 pull fetches the chunks of its files. */
export interface PrefetchWindow {
  /** Go's window: chunks that fit the budget next to the largest decoded one; below 2 the pull is sequential. */
  readonly window: number;
  /** How many chunks are actually fetched ahead ({@link prefetchDepth}). */
  readonly depth: number;
  /** The largest decoded chunk: each chunk's decoder refuses more. */
  readonly cap: number;
}

/**
 * Go's prefetch window: how many chunks fit the budget next to the largest decoded chunk (below
 * 2 the pull goes sequential, as Go's does); `depth` ({@link prefetchDepth}) is how many are
 * actually fetched ahead, so the process's peak RSS stays within the budget.
 */
export function prefetchWindow(files: readonly EncodedFile[], prefetch: number, budget: number): PrefetchWindow {
  let inputCap = 0;
  let outputCap = 0;
  for (const p of files) {
    if (p.chunks.length < 2) continue;
    inputCap = Math.max(inputCap, p.zstd ? p.largest : 0);
    outputCap = Math.max(outputCap, p.zstd ? rawChunkStride(p.meta.size ?? 0, p.chunks.length) : p.largest);
  }
  if (outputCap <= 0 || inputCap > MAX_BUFFERED_CHUNK || outputCap > MAX_BUFFERED_CHUNK) return { window: 0, depth: 0, cap: 0 };
  const fits = budget > outputCap ? Math.min(prefetch, Math.floor((budget - outputCap) / (inputCap + outputCap))) : 0;
  if (fits < 2) return { window: 0, depth: 0, cap: outputCap };
  return { window: fits, depth: prefetchDepth(fits, inputCap, outputCap, budget), cap: outputCap };
}

/** Go's `rawChunkStride`: the largest uncompressed chunk a file cut at fixed offsets can have. */
function rawChunkStride(size: number, n: number): number {
  if (n <= 1 || size <= 0) return size;
  return Math.floor((size - 1) / (n - 1)) + 1;
}
