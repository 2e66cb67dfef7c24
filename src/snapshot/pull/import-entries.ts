import { type Descriptor, descriptorTitle, type OCIManifest } from "../../oci/manifest-types.js";
import { ArtifactType, isZstdMediaType } from "../../oci/media-types.js";
import type { SnapshotConfig, SnapshotFile } from "../../oci/snapshot-config.js";
import { fileMeta, isEncoded } from "../artifact-checks.js";
import { formatError } from "../errors.js";

/** A layer the import holds as stored: every v1 layer, and a v2 layer neither chunked nor compressed. */
export interface StoredLayer {
  readonly title: string;
  /** The config's entry for the title (mode, sparse map), `{}` when it has none. */
  readonly meta: SnapshotFile;
  /** The entry's bytes: the layer's. */
  readonly size: number;
  readonly layer: Descriptor;
}

/** A v2 file rebuilt once from its chunks or zstd frames, at its first layer. */
export interface EncodedFile {
  readonly title: string;
  /** The config's entry for the title. */
  readonly meta: SnapshotFile;
  /** The entry's bytes: the config's `size`, which the rebuilt file must match. */
  readonly size: number;
  /** The file's chunks, in the config's order. */
  readonly chunks: readonly Descriptor[];
  /** The largest of them as stored, in bytes. */
  readonly largest: number;
  /** Whether each chunk is a zstd frame to decode. */
  readonly zstd: boolean;
}

/** One entry of the import tar after `snapshot.json`. */
export type ImportEntry = StoredLayer | EncodedFile;

/**
 * The import's entries in the manifest's order (Go's `StreamParsed`): each layer passed through,
 * or (v2) each encoded file once, its chunks resolved up front, so a missing one fails before
 * any layer is written.
 */
export function importEntries(m: OCIManifest, cfg: SnapshotConfig): ImportEntry[] {
  const layers = m.layers ?? [];
  const v2 = m.artifactType === ArtifactType.SnapshotV2;
  const byDigest = v2 ? new Map(layers.map((l) => [l.digest, l])) : new Map<string, Descriptor>();
  const entries: ImportEntry[] = [];
  const encoded = new Set<string>();
  for (const layer of layers) {
    const title = descriptorTitle(layer);
    const meta = fileMeta(cfg, title);
    if (!v2 || !isEncoded(meta, layer)) {
      entries.push({ title, meta, size: layer.size, layer });
      continue;
    }
    if (encoded.has(title)) continue;
    encoded.add(title);
    const chunks = resolveEncodedFile(layer, meta, byDigest);
    entries.push({ title, meta, size: meta.size ?? 0, chunks, largest: largest(chunks), zstd: isZstdMediaType(layer.mediaType) });
  }
  return entries;
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

/** The largest size among `descs`, without spreading them onto the stack (a file may have 2^20 chunks). */
function largest(descs: readonly Descriptor[]): number {
  let max = 0;
  for (const d of descs) if (d.size > max) max = d.size;
  return max;
}
