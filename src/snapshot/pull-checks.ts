import { CocoonError } from "../errors.js";
import { type Descriptor, descriptorTitle, type OCIManifest } from "../oci/manifest-types.js";
import { ArtifactType, isSnapshotLayerMediaType, isZstdMediaType, MediaType, OCIAnnotation } from "../oci/media-types.js";
import type { SnapshotConfig, SnapshotFile } from "../oci/snapshot-config.js";
import type { TarEntryHeader } from "./tar-header.js";

function format(message: string): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_FORMAT", message);
}

/** Go's `validateSnapshotLayers`: fails before any byte is written. */
export function validateSnapshotLayers(m: OCIManifest, cfg: SnapshotConfig): void {
  const encoded = m.artifactType === ArtifactType.SnapshotV2;
  for (const layer of m.layers ?? []) {
    if (layer.size < 0) throw format(`layer ${layer.digest} has negative size ${layer.size}`);
    if (!isSnapshotLayerMediaType(layer.mediaType)) {
      throw format(`layer ${layer.digest} has unsupported mediaType ${JSON.stringify(layer.mediaType)} (snapshot needs a newer reader)`);
    }
    if (descriptorTitle(layer) === "") {
      throw format(`layer ${layer.digest} missing ${OCIAnnotation.Title} annotation`);
    }
    if (!encoded && isZstdMediaType(layer.mediaType)) {
      throw format(`layer ${layer.digest} is zstd-compressed but manifest is not ${ArtifactType.SnapshotV2}`);
    }
  }
  if (encoded) return;
  for (const [name, f] of Object.entries(cfg.files ?? {})) {
    if ((f.chunks?.length ?? 0) > 0) throw format(`file ${name} is chunked but manifest is not ${ArtifactType.SnapshotV2}`);
  }
}

/** Go's `layerHeader`: mode 0640 when unset, the sparse PAX records when the config has a map. */
export function layerHeader(title: string, size: number, meta: SnapshotFile, mtime: number): TarEntryHeader {
  const mode = meta.mode || 0o640;
  if (!meta.sparseMap) return { name: title, size, mode, mtime };
  if ((meta.sparseSize ?? 0) <= 0) throw format(`layer ${title} has sparse map without sparse size`);
  return {
    name: title,
    size,
    mode,
    mtime,
    pax: { "COCOON.sparse.map": meta.sparseMap, "COCOON.sparse.size": String(meta.sparseSize) },
  };
}

/** Go's `resolveEncodedFile`: the chunk order comes from the config, the manifest is a lookup table. */
export function resolveEncodedFile(layer: Descriptor, meta: SnapshotFile, byDigest: ReadonlyMap<string, Descriptor>): Descriptor[] {
  const title = descriptorTitle(layer);
  if ((meta.size ?? 0) <= 0) throw format(`${title}: encoded layer missing files[].size in snapshot config`);
  if (!meta.chunks || meta.chunks.length === 0) return [layer];
  return meta.chunks.map((digest, i) => {
    const desc = byDigest.get(digest);
    if (desc === undefined) throw format(`${title} chunk ${i} (${digest}) missing from manifest layers`);
    return desc;
  });
}

/** Go's `rawChunkStride`: the largest uncompressed chunk a file cut at fixed offsets can have. */
export function rawChunkStride(size: number, n: number): number {
  if (n <= 1 || size <= 0) return size;
  return Math.floor((size - 1) / (n - 1)) + 1;
}

/** Refuses a config descriptor Go refuses. */
export function checkConfigDescriptor(desc: Descriptor, cap: number): void {
  if (desc.mediaType !== MediaType.SnapshotConfig) {
    throw format(`unexpected config mediaType ${JSON.stringify(desc.mediaType)}`);
  }
  if (desc.size > cap) throw format(`config blob too large: ${desc.size} > ${cap}`);
}
