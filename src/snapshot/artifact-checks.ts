import { type Descriptor, descriptorTitle, type OCIManifest } from "../oci/manifest-types.js";
import { ArtifactType, isSnapshotLayerMediaType, isZstdMediaType, OCIAnnotation } from "../oci/media-types.js";
import type { SnapshotConfig, SnapshotFile } from "../oci/snapshot-config.js";
import { fileNameProblem } from "./file-name.js";
import { sparseMapProblem } from "./codec/sparse-map.js";
import { formatError } from "./errors.js";
import { ENVELOPE_NAME } from "./codec/envelope.js";

/**
 * The most chunks one file may have: Go's push refuses to cut a file into more (its "sanity cap",
 * which ours keeps), so no push writes an artifact past it.
 */
export const MAX_FILE_CHUNKS = 2 ** 20;

/** The smallest chunk a push cuts (`chunkSizeMiB` is a whole number of MiB), all but the last. */
const MIN_CHUNK = 2 ** 20;

/**
 * Refuses more chunk references than a push could have cut `size` bytes into: one per MiB begun,
 * and never past {@link MAX_FILE_CHUNKS}. A file without a size is left to Go's check.
 */
function checkChunkCount(title: string, meta: SnapshotFile): void {
  const chunks = meta.chunks?.length ?? 0;
  const size = meta.size ?? 0;
  if (chunks > MAX_FILE_CHUNKS) throw formatError(`${title}: ${chunks} chunks exceeds sanity cap`);
  if (size > 0 && chunks > Math.ceil(size / MIN_CHUNK)) {
    throw formatError(`${title}: ${chunks} chunks for ${size} bytes, more than one per MiB`);
  }
}

/**
 * The most layers a snapshot manifest may list: one file at {@link MAX_FILE_CHUNKS} chunks. A
 * manifest within registries' 4 MiB limit holds far fewer descriptors (about 2^15).
 */
export const MAX_LAYERS = 2 ** 20;

/** The config's entry for `title`, only when the config itself has one (never `Object.prototype`'s members). */
export function fileMeta(cfg: SnapshotConfig, title: string): SnapshotFile {
  const files = cfg.files;
  return files !== undefined && Object.hasOwn(files, title) ? (files[title] as SnapshotFile) : {};
}

/** Whether the v2 pull rebuilds `title` from encoded layers (chunks or zstd) rather than passing `layer` through. */
export function isEncoded(meta: SnapshotFile, layer: Descriptor): boolean {
  return (meta.chunks?.length ?? 0) > 0 || isZstdMediaType(layer.mediaType);
}

function checkTitles(layers: readonly Descriptor[], cfg: SnapshotConfig, v2: boolean): Map<string, Descriptor> {
  const first = new Map<string, Descriptor>();
  for (const layer of layers) {
    const title = descriptorTitle(layer);
    const quoted = JSON.stringify(title);
    const problem = fileNameProblem(title);
    if (problem !== undefined)
      throw formatError(`layer ${layer.digest} has ${OCIAnnotation.Title} ${quoted}, not a single file name: ${problem}`);
    if (title === ENVELOPE_NAME)
      throw formatError(`layer ${layer.digest} has ${OCIAnnotation.Title} ${quoted}, the name of the import's envelope`);
    const earlier = first.get(title);
    if (earlier === undefined) first.set(title, layer);
    else if (!v2 || (fileMeta(cfg, title).chunks?.length ?? 0) === 0) {
      throw formatError(`layer ${layer.digest} has ${OCIAnnotation.Title} ${quoted}, the title of layer ${earlier.digest} too`);
    }
  }
  return first;
}

/**
 * The bytes the import entry of `title` will hold, as far as the manifest tells: a layer passed
 * through holds its size, raw chunks the sum of theirs (past 2^53 counts as infinite); a zstd file
 * holds what its config claims, which the pull checks as it decodes. `undefined` when the pull
 * will refuse the file for another reason, with Go's words.
 */
function storedSize(layer: Descriptor, meta: SnapshotFile, v2: boolean, byDigest: ReadonlyMap<string, Descriptor>): number | undefined {
  if (!v2 || !isEncoded(meta, layer)) return layer.size;
  if ((meta.size ?? 0) <= 0) return undefined;
  if (isZstdMediaType(layer.mediaType) || !meta.chunks) return meta.size;
  let sum = 0;
  for (const digest of meta.chunks) {
    const chunk = byDigest.get(digest);
    if (chunk === undefined) return undefined;
    sum += chunk.size;
    if (sum > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY;
  }
  return sum;
}

/**
 * What a registry names in a snapshot artifact, checked before any byte of the import is written:
 * at most {@link MAX_LAYERS} layers; no more chunks to a file than a push cuts it into (one per
 * MiB, at most {@link MAX_FILE_CHUNKS}); layer titles that are single file names, one file each
 * (the chunks of a v2 file share theirs), never the envelope's; and sparse maps that describe
 * exactly the bytes stored. Runs after Go's checks, so what Go refuses is refused with Go's words.
 */
export function checkRegistryNames(m: OCIManifest, cfg: SnapshotConfig): void {
  const layers = m.layers ?? [];
  if (layers.length > MAX_LAYERS)
    throw formatError(`manifest has ${layers.length} layers, more than the ${MAX_LAYERS} a snapshot may have`);
  const v2 = m.artifactType === ArtifactType.SnapshotV2;
  const first = checkTitles(layers, cfg, v2);
  let byDigest: Map<string, Descriptor> | undefined;
  for (const [title, layer] of first) {
    const meta = fileMeta(cfg, title);
    if (v2) checkChunkCount(title, meta);
    if (!meta.sparseMap) continue;
    if ((meta.sparseSize ?? 0) <= 0) throw formatError(`layer ${title} has sparse map without sparse size`);
    if (v2 && (meta.chunks?.length ?? 0) > 0 && byDigest === undefined) byDigest = new Map(layers.map((l) => [l.digest, l]));
    const stored = storedSize(layer, meta, v2, byDigest ?? new Map());
    if (stored === undefined) continue;
    const problem = sparseMapProblem(meta.sparseMap, stored, meta.sparseSize ?? 0);
    if (problem !== undefined) throw formatError(`layer ${title} has a malformed sparse map: ${problem}`);
  }
}

/** Go's `validateSnapshotLayers`, then {@link checkRegistryNames}: the pull's checks, before any byte is written. */
export function validateSnapshotLayers(m: OCIManifest, cfg: SnapshotConfig): void {
  const encoded = m.artifactType === ArtifactType.SnapshotV2;
  for (const layer of m.layers ?? []) {
    if (layer.size < 0) throw formatError(`layer ${layer.digest} has negative size ${layer.size}`);
    if (!isSnapshotLayerMediaType(layer.mediaType)) {
      throw formatError(
        `layer ${layer.digest} has unsupported mediaType ${JSON.stringify(layer.mediaType)} (snapshot needs a newer reader)`,
      );
    }
    if (descriptorTitle(layer) === "") {
      throw formatError(`layer ${layer.digest} missing ${OCIAnnotation.Title} annotation`);
    }
    if (!encoded && isZstdMediaType(layer.mediaType)) {
      throw formatError(`layer ${layer.digest} is zstd-compressed but manifest is not ${ArtifactType.SnapshotV2}`);
    }
  }
  if (!encoded) {
    for (const [name, f] of Object.entries(cfg.files ?? {})) {
      if ((f.chunks?.length ?? 0) > 0) throw formatError(`file ${name} is chunked but manifest is not ${ArtifactType.SnapshotV2}`);
    }
  }
  checkRegistryNames(m, cfg);
}
