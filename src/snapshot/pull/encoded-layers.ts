import { CocoonError, isCocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import { type Descriptor, descriptorTitle } from "../../oci/manifest-types.js";
import { isZstdMediaType } from "../../oci/media-types.js";
import type { SnapshotFile } from "../../oci/snapshot-config.js";
import { fileMeta, isEncoded } from "../artifact-checks.js";
import { layerHeader } from "../codec/tar-header.js";
import type { TarWriter } from "../codec/tar-writer.js";
import { decodeChunkPieces, decodeStream } from "../codec/zstd-decode.js";
import { formatError } from "../errors.js";
import { ChunkBuffers } from "../io/chunk-buffers.js";
import { readVerifiedBlob, verifiedBlobs } from "./blob-reader.js";
import { type EncodedChunks, largest, prefetchWindow, type PrefetchWindow } from "./prefetch-window.js";
import { type ImportEntries, writeRawLayer } from "./raw-layer.js";

/** What {@link writeEncodedLayers} needs from the pull: the entries' context, the layers, and the budget of the chunk window. */
export interface EncodedPull extends ImportEntries {
  readonly layers: readonly Descriptor[];
  readonly budget: number;
  readonly prefetch: number;
}

/** One encoded file of the import: its title, and its chunks as {@link EncodedChunks}. */
interface Plan extends EncodedChunks {
  readonly title: string;
}

/** Go's v2 assembly: raw layers pass through, encoded files are rebuilt once, at their first layer. */
export async function writeEncodedLayers(pull: EncodedPull): Promise<void> {
  const byDigest = new Map(pull.layers.map((l) => [l.digest, l]));
  const plans = new Map<string, Plan>();
  for (const layer of pull.layers) {
    const title = descriptorTitle(layer);
    const meta = fileMeta(pull.cfg, title);
    if (!isEncoded(meta, layer) || plans.has(title)) continue;
    plans.set(title, { title, meta, chunks: resolveEncodedFile(layer, meta, byDigest), zstd: isZstdMediaType(layer.mediaType) });
  }
  const window = prefetchWindow([...plans.values()], pull.prefetch, pull.budget);
  const emitted = new Set<string>();
  for (const layer of pull.layers) {
    const plan = plans.get(descriptorTitle(layer));
    if (plan === undefined || !isEncoded(plan.meta, layer)) {
      await writeRawLayer(pull, layer);
      continue;
    }
    if (emitted.has(plan.title)) continue;
    emitted.add(plan.title);
    pull.opts.progress?.(`  ${plan.title} (${plan.meta.size ?? 0} bytes, ${plan.chunks.length} chunks)`);
    await streamFile(pull, plan, window);
  }
}

/** Go's `resolveEncodedFile`: the chunk order comes from the config, the manifest is a lookup table. */
function resolveEncodedFile(layer: Descriptor, meta: SnapshotFile, byDigest: ReadonlyMap<string, Descriptor>): Descriptor[] {
  const title = descriptorTitle(layer);
  if ((meta.size ?? 0) <= 0) throw formatError(`${title}: encoded layer missing files[].size in snapshot config`);
  if (!meta.chunks || meta.chunks.length === 0) return [layer];
  return meta.chunks.map((digest, i) => {
    const desc = byDigest.get(digest);
    if (desc === undefined) throw formatError(`${title} chunk ${i} (${digest}) missing from manifest layers`);
    return desc;
  });
}

/** Writes one encoded file's entry: its header, then its chunks decoded (or fetched) in order, checked against its size. */
async function streamFile(pull: EncodedPull, plan: Plan, window: PrefetchWindow): Promise<void> {
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
      run.release(pull.tw);
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

/** One chunk's bytes as decoded (or fetched), and what becomes of them once written. */
interface Run {
  readonly pieces: readonly Uint8Array[];
  /** Frees or reuses the pieces once `tw`'s output has taken them, when only the pull holds them. */
  release(tw: TarWriter): void;
}

const KEEP = (): void => undefined;

/** The chunks of `plan`, `window` of them fetched and decoded ahead, in order. */
async function* windowed(pull: EncodedPull, plan: Plan, window: number, cap: number): AsyncGenerator<Run> {
  const queue: Promise<Run>[] = [];
  // Compressed and decoded chunks land in reused buffers: a fresh one per chunk costs its page
  // faults each time, and a collection every few chunks.
  const buffers = new ChunkBuffers(largest(plan.chunks));
  const decoded = new ChunkBuffers(cap + 1);
  let next = 0;
  const fill = (): void => {
    while (queue.length < window && next < plan.chunks.length) {
      const p = fetchChunk(pull, plan, plan.chunks[next++] as Descriptor, cap, { buffers, decoded });
      p.catch(() => undefined);
      queue.push(p);
    }
  };
  try {
    fill();
    while (queue.length > 0) {
      const run = await (queue.shift() as Promise<Run>);
      fill();
      yield run;
    }
  } finally {
    await Promise.allSettled(queue);
    buffers.close();
    decoded.close();
  }
}

/** The reused buffers of a windowed pull: compressed chunks as fetched, and chunks decoded into buffers of the pull's own. */
interface WindowBuffers {
  readonly buffers: ChunkBuffers;
  readonly decoded: ChunkBuffers;
}

/**
 * Fetches and decodes one chunk: a compressed chunk is read into a buffer of `buffers`, given back
 * once decoded, and decoded into one of `decoded` (given back once written) when its frames allow.
 */
async function fetchChunk(pull: EncodedPull, plan: Plan, desc: Descriptor, cap: number, { buffers, decoded }: WindowBuffers): Promise<Run> {
  if (!plan.zstd) return owned([await readVerifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal)]);
  const stored = buffers.take(desc.size);
  let into: Uint8Array | undefined;
  let intoUsed = false;
  try {
    await readVerifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal, stored);
    // Taken once the chunk has arrived, not when its fetch starts: by then the output has often
    // taken an earlier chunk, whose buffer this one reuses instead of faulting in a fresh one.
    const out = (into = decoded.take(cap + 1));
    const pieces = await decodeChunkPieces(stored, cap, out);
    intoUsed = pieces.length === 1 && pieces[0]?.buffer === out.buffer;
    return intoUsed ? { pieces, release: (tw) => tw.onTaken(() => decoded.give(out)) } : owned(pieces);
  } catch (err) {
    if (isCocoonError(err) || pull.opts.signal?.aborted) throw err;
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `decode chunk ${desc.digest}: ${messageOf(err)}`, { cause: err });
  } finally {
    buffers.give(stored);
    if (into !== undefined && !intoUsed) decoded.give(into);
  }
}

/** A run whose pieces only the pull holds: freed once written. */
function owned(pieces: Uint8Array[]): Run {
  return { pieces, release: (tw) => tw.release(pieces) };
}

/** The chunks of `plan` one after the other, decoded as they stream in when they are zstd frames. */
async function* sequential(pull: EncodedPull, plan: Plan): AsyncGenerator<Run> {
  const stored = verifiedBlobs(pull.dl, pull.opts.name, plan.chunks, pull.opts.signal);
  for await (const piece of plan.zstd ? decodeStream(stored) : stored) {
    yield { pieces: [piece], release: KEEP };
  }
}
