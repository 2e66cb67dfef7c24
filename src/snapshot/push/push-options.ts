import { CocoonError } from "../../errors.js";

/** Options of {@link pushSnapshot}: Go's `PushOptions`, plus an abort signal and a clock. */
export interface PushOptions {
  /** Repository (VM name); required. */
  readonly name: string;
  /** Tag; default `latest`. */
  readonly tag?: string;
  /** `cocoonstack.snapshot.baseimage` annotation. */
  readonly baseImage?: string;
  /** `org.opencontainers.image.source` annotation. */
  readonly source?: string;
  /** `org.opencontainers.image.revision` annotation. */
  readonly revision?: string;
  /** Manifest annotations; a caller key wins over the ones above and over `created`, as in Go. */
  readonly annotations?: Readonly<Record<string, string>>;
  /** Receives Go's progress lines. */
  readonly progress?: (line: string) => void;
  /** v2: zstd level for files of 1 MiB or more (0 = off). */
  readonly zstdLevel?: number;
  /** v2: cut files into blobs of this many MiB (0 = off, at most 4096). */
  readonly chunkSizeMiB?: number;
  /** v2: parallel chunk uploads (default 8). */
  readonly concurrency?: number;
  /** v2: cap on buffered chunk bytes in MiB (default 9216); at least 4 × the chunk size. */
  readonly memoryBudgetMiB?: number;
  /** Aborts the push; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Clock in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** What Go's push returns. */
export interface PushResult {
  /** Repository. */
  readonly name: string;
  /** Tag the manifest was stored under. */
  readonly tag: string;
  /** `sha256:<hex>` of the manifest bytes. */
  readonly manifestDigest: string;
  /** The manifest bytes as uploaded. */
  readonly manifestBytes: Uint8Array;
  /** Sum of the layer sizes plus the config size (a duplicate layer counts twice). */
  readonly totalSize: number;
  /** Number of layers. */
  readonly layerCount: number;
}

const MAX_CHUNK_MIB = 4096;
const DEFAULT_WORKERS = 8;
/** Go's default push memory budget in MiB. */
export const DEFAULT_BUDGET_MIB = 9216;

/** The v2 pipeline's parameters after Go's defaults and clamps. */
export interface PipelineParams {
  readonly workers: number;
  readonly chunkSize: number;
}

/** Go's `pipelineParams`: solves 2 × (workers + 1) × chunk ≤ budget, refusing a budget below 4 × chunk. */
export function pipelineParams(opts: PushOptions): PipelineParams {
  const workers = opts.concurrency && opts.concurrency > 0 ? opts.concurrency : DEFAULT_WORKERS;
  const chunkMiB = opts.chunkSizeMiB ?? 0;
  if (chunkMiB > MAX_CHUNK_MIB) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot push: chunk size ${chunkMiB} MiB exceeds the ${MAX_CHUNK_MIB} MiB maximum`);
  }
  const chunkSize = Math.max(chunkMiB, 0) * 2 ** 20;
  if (chunkSize === 0) return { workers, chunkSize: 0 };
  const budgetMiB = opts.memoryBudgetMiB && opts.memoryBudgetMiB > 0 ? opts.memoryBudgetMiB : DEFAULT_BUDGET_MIB;
  const budget = budgetMiB * 2 ** 20;
  if (4 * chunkSize > budget) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `snapshot push: chunk size ${chunkMiB} MiB needs at least a ${4 * chunkMiB} MiB memory budget, got ${budgetMiB} MiB`,
    );
  }
  return { workers: Math.min(workers, Math.floor(budget / (2 * chunkSize)) - 1), chunkSize };
}

/** Refuses options that are not numbers Go could hold. */
export function checkPushOptions(opts: PushOptions): void {
  for (const key of ["zstdLevel", "chunkSizeMiB", "concurrency", "memoryBudgetMiB"] as const) {
    const v = opts[key];
    if (v !== undefined && !Number.isSafeInteger(v)) {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot push: ${key} must be an integer, got ${String(v)}`);
    }
  }
  if (opts.zstdLevel !== undefined && opts.zstdLevel > 22) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot push: zstdLevel ${opts.zstdLevel} is above 22`);
  }
}
