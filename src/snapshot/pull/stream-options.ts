import type { Writable } from "node:stream";

/** Options of {@link streamSnapshot}: Go's `StreamOptions`, plus an abort signal and a clock. */
export interface StreamOptions {
  /** Repository (VM name) to read blobs from; required. */
  readonly name: string;
  /** Name written into `snapshot.json`; defaults to `name`. */
  readonly localName?: string;
  /** Receives the `cocoon snapshot import` tar; ended on success, destroyed on failure; refused when already ended or destroyed. */
  readonly output: Writable;
  /** Receives Go's progress lines. */
  readonly progress?: (line: string) => void;
  /** Chunks fetched ahead for chunked files (default 8). */
  readonly concurrency?: number;
  /**
   * Memory budget in MiB (default 4096): below two chunks (Go's formula) the pull goes sequential;
   * otherwise it fetches ahead as many chunks as fit next to a 128 MiB runtime reserve, so the
   * process's peak RSS stays within it.
   */
  readonly memoryBudgetMiB?: number;
  /** Aborts the pull, also while waiting for a slow output; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Clock in milliseconds since the epoch (default `Date.now`); tar mtimes round it to the second. */
  readonly now?: () => number;
  /** Leave `output` open on success (default: end it); the call then resolves once the output has taken every byte. */
  readonly keepOpen?: boolean;
}

/** Go's default prefetch depth and pull budget. */
export const PULL_DEFAULTS = { concurrency: 8, memoryBudgetMiB: 4096 } as const;
