import { CocoonError, isCocoonError } from "../errors.js";
import { type Descriptor, descriptorTitle } from "../oci/manifest-types.js";
import { isZstdMediaType } from "../oci/media-types.js";
import type { Downloader } from "../oci/registry.js";
import type { SnapshotConfig, SnapshotFile } from "../oci/snapshot-config.js";
import { messageOf, readVerifiedBlob, verifiedBlob } from "./blob-reader.js";
import { ChunkBuffers } from "./chunk-buffers.js";
import { prefetchDepth } from "./memory-budget.js";
import { layerHeader, rawChunkStride, resolveEncodedFile } from "./pull-checks.js";
import type { StreamOptions } from "./stream-options.js";
import type { TarWriter } from "./tar-writer.js";
import { decodeChunkPieces, decodeStream } from "./zstd.js";

const MAX_BUFFERED_CHUNK = 1 << 30;

interface Plan {
  readonly title: string;
  readonly meta: SnapshotFile;
  readonly chunks: readonly Descriptor[];
  readonly zstd: boolean;
}

/** What {@link writeEncodedLayers} needs from the pull. */
export interface EncodedPull {
  readonly dl: Downloader;
  readonly opts: StreamOptions;
  readonly tw: TarWriter;
  readonly layers: readonly Descriptor[];
  readonly cfg: SnapshotConfig;
  readonly mtime: number;
  readonly budget: number;
  readonly prefetch: number;
  /** Writes a layer that is neither compressed nor chunked, as the v1 pull does. */
  readonly writeRaw: (layer: Descriptor) => Promise<void>;
}

/**
 * Go's prefetch window: how many chunks fit the budget next to the largest decoded chunk (below
 * 2 the pull goes sequential, as Go's does); `depth` ({@link prefetchDepth}) is how many are
 * actually fetched ahead, so the process's peak RSS stays within the budget.
 */
function prefetchWindow(plans: readonly Plan[], prefetch: number, budget: number): { window: number; depth: number; cap: number } {
  let inputCap = 0;
  let outputCap = 0;
  for (const p of plans) {
    if (p.chunks.length < 2) continue;
    const stored = Math.max(...p.chunks.map((d) => d.size));
    inputCap = Math.max(inputCap, p.zstd ? stored : 0);
    outputCap = Math.max(outputCap, p.zstd ? rawChunkStride(p.meta.size ?? 0, p.chunks.length) : stored);
  }
  if (outputCap <= 0 || inputCap > MAX_BUFFERED_CHUNK || outputCap > MAX_BUFFERED_CHUNK) return { window: 0, depth: 0, cap: 0 };
  const fits = budget > outputCap ? Math.min(prefetch, Math.floor((budget - outputCap) / (inputCap + outputCap))) : 0;
  if (fits < 2) return { window: 0, depth: 0, cap: outputCap };
  return { window: fits, depth: prefetchDepth(fits, inputCap, outputCap, budget), cap: outputCap };
}

/** Fetches and decodes one chunk (in pieces); a compressed chunk is read into a buffer of `buffers`, given back once decoded. */
async function fetchChunk(pull: EncodedPull, plan: Plan, desc: Descriptor, cap: number, buffers: ChunkBuffers): Promise<Uint8Array[]> {
  if (!plan.zstd) return [await readVerifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal)];
  const stored = buffers.take(desc.size);
  try {
    await readVerifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal, stored);
    return await decodeChunkPieces(stored, cap);
  } catch (err) {
    if (isCocoonError(err) || pull.opts.signal?.aborted) throw err;
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `decode chunk ${desc.digest}: ${messageOf(err)}`, { cause: err });
  } finally {
    buffers.give(stored);
  }
}

/** One chunk's bytes as decoded (or fetched), and whether only the pull holds them, so it may free them once written. */
interface Run {
  readonly pieces: readonly Uint8Array[];
  readonly owned: boolean;
}

async function* windowed(pull: EncodedPull, plan: Plan, window: number, cap: number): AsyncGenerator<Run> {
  const queue: Promise<Uint8Array[]>[] = [];
  // Compressed chunks land in reused buffers: a fresh one per chunk costs its page faults each time.
  const buffers = new ChunkBuffers(Math.max(...plan.chunks.map((d) => d.size)));
  let next = 0;
  const fill = (): void => {
    while (queue.length < window && next < plan.chunks.length) {
      const p = fetchChunk(pull, plan, plan.chunks[next++] as Descriptor, cap, buffers);
      p.catch(() => undefined);
      queue.push(p);
    }
  };
  try {
    fill();
    while (queue.length > 0) {
      const pieces = await (queue.shift() as Promise<Uint8Array[]>);
      fill();
      yield { pieces, owned: true };
    }
  } finally {
    await Promise.allSettled(queue);
    buffers.close();
  }
}

async function* storedBytes(pull: EncodedPull, plan: Plan): AsyncGenerator<Uint8Array> {
  for (const desc of plan.chunks) yield* verifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal);
}

async function* sequential(pull: EncodedPull, plan: Plan): AsyncGenerator<Run> {
  for await (const piece of plan.zstd ? decodeStream(storedBytes(pull, plan)) : storedBytes(pull, plan)) {
    yield { pieces: [piece], owned: false };
  }
}

async function streamFile(pull: EncodedPull, plan: Plan, window: { window: number; depth: number; cap: number }): Promise<void> {
  const size = plan.meta.size ?? 0;
  await pull.tw.writeHeader(layerHeader(plan.title, size, plan.meta, pull.mtime));
  const body =
    window.window >= 2 && plan.chunks.length >= 2
      ? windowed(pull, plan, Math.min(window.depth, plan.chunks.length), window.cap)
      : sequential(pull, plan);
  let written = 0;
  try {
    for await (const run of body) {
      for (const data of run.pieces) {
        written += data.length;
        await pull.tw.write(data);
      }
      if (run.owned) pull.tw.release(run.pieces);
    }
  } catch (err) {
    if (pull.opts.signal?.aborted) throw err;
    const code = isCocoonError(err) ? err.code : "ERR_SNAPSHOT_INTEGRITY";
    throw new CocoonError(code, `stream ${plan.title}: ${messageOf(err)}`, { cause: err });
  }
  if (written !== size) {
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `${plan.title} reconstructed to ${written} bytes, want ${size}`);
  }
}

/** Go's v2 assembly: raw layers pass through, encoded files are rebuilt once, at their first layer. */
export async function writeEncodedLayers(pull: EncodedPull): Promise<void> {
  const byDigest = new Map(pull.layers.map((l) => [l.digest, l]));
  const plans = new Map<string, Plan>();
  for (const layer of pull.layers) {
    const title = descriptorTitle(layer);
    const meta = pull.cfg.files?.[title] ?? {};
    const raw = (meta.chunks?.length ?? 0) === 0 && !isZstdMediaType(layer.mediaType);
    if (raw || plans.has(title)) continue;
    plans.set(title, { title, meta, chunks: resolveEncodedFile(layer, meta, byDigest), zstd: isZstdMediaType(layer.mediaType) });
  }
  const window = prefetchWindow([...plans.values()], pull.prefetch, pull.budget);
  const emitted = new Set<string>();
  for (const layer of pull.layers) {
    const title = descriptorTitle(layer);
    const plan = plans.get(title);
    const meta = pull.cfg.files?.[title] ?? {};
    if (plan === undefined || ((meta.chunks?.length ?? 0) === 0 && !isZstdMediaType(layer.mediaType))) {
      await pull.writeRaw(layer);
      continue;
    }
    if (emitted.has(title)) continue;
    emitted.add(title);
    pull.opts.progress?.(`  ${title} (${plan.meta.size ?? 0} bytes, ${plan.chunks.length} chunks)`);
    await streamFile(pull, plan, window);
  }
}
