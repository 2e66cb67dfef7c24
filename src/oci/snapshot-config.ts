import {
  BOOL,
  INT64_SAFE,
  STRING,
  always,
  map,
  marshalGoJSON,
  oe,
  slice,
  struct,
  unmarshalGo,
  type GoField,
  type GoType,
} from "../internal/go/index.js";

/** Per-file metadata in a snapshot config blob. */
export interface SnapshotFile {
  /** Tar mode bits as exported (0 = unset). */
  readonly mode?: number;
  /** cocoon's `COCOON.sparse.map` PAX record. */
  readonly sparseMap?: string;
  /** cocoon's `COCOON.sparse.size` PAX record, parsed. */
  readonly sparseSize?: number;
  /** Uncompressed file size (v2 writer). */
  readonly size?: number;
  /** Chunk blob digests in file order (v2, chunked files only). */
  readonly chunks?: readonly string[];
}

/** The OCI config blob of a snapshot artifact (Go's `manifest.SnapshotConfig`). */
export interface SnapshotConfig {
  /** `v1` or `v2`. */
  readonly schemaVersion: string;
  /** The snapshot id. */
  readonly snapshotId: string;
  /** Optional fields copied from `snapshot.json`. */
  readonly description?: string;
  /** Base image reference. */
  readonly image?: string;
  /** Base image digest. */
  readonly imageDigest?: string;
  /** Base image type. */
  readonly imageType?: string;
  /** Image blob ids (a Go set). */
  readonly imageBlobIds?: readonly string[];
  /** Hypervisor name. */
  readonly hypervisor?: string;
  /** vCPU count. */
  readonly cpu?: number;
  /** Memory in bytes. */
  readonly memory?: number;
  /** Storage in bytes. */
  readonly storage?: number;
  /** NIC count. */
  readonly nics?: number;
  /** Network name. */
  readonly network?: string;
  /** Whether the guest is Windows. */
  readonly windows?: boolean;
  /** Files by name. */
  readonly files?: Readonly<Record<string, SnapshotFile>>;
  /** Creation time as Go's RFC 3339 with trimmed fraction; absent = zero time. */
  readonly createdAt?: string;
}

function orUndefined<T>(v: T, zero: T): T | undefined {
  return v === zero ? undefined : v;
}

function sortedMap<V>(entries: Iterable<[string, V]>): Map<string, V> {
  return new Map(entries);
}

function fileJSON(f: SnapshotFile): object {
  return {
    mode: orUndefined(f.mode ?? 0, 0),
    sparseMap: orUndefined(f.sparseMap ?? "", ""),
    sparseSize: orUndefined(f.sparseSize ?? 0, 0),
    size: orUndefined(f.size ?? 0, 0),
    chunks: f.chunks && f.chunks.length > 0 ? f.chunks : undefined,
  };
}

/** Writes the config blob exactly as Go's `json.Marshal` does: compact, omitempty, sorted maps. */
export function marshalSnapshotConfig(cfg: SnapshotConfig): string {
  const blobIds = cfg.imageBlobIds && cfg.imageBlobIds.length > 0 ? cfg.imageBlobIds : undefined;
  const files = cfg.files && Object.keys(cfg.files).length > 0 ? cfg.files : undefined;
  return marshalGoJSON({
    schemaVersion: cfg.schemaVersion,
    snapshotId: cfg.snapshotId,
    description: orUndefined(cfg.description ?? "", ""),
    image: orUndefined(cfg.image ?? "", ""),
    imageDigest: orUndefined(cfg.imageDigest ?? "", ""),
    imageType: orUndefined(cfg.imageType ?? "", ""),
    imageBlobIds: blobIds && sortedMap(blobIds.map((id) => [id, {}])),
    hypervisor: orUndefined(cfg.hypervisor ?? "", ""),
    cpu: orUndefined(cfg.cpu ?? 0, 0),
    memory: orUndefined(cfg.memory ?? 0, 0),
    storage: orUndefined(cfg.storage ?? 0, 0),
    nics: orUndefined(cfg.nics ?? 0, 0),
    network: orUndefined(cfg.network ?? "", ""),
    windows: cfg.windows === true ? true : undefined,
    files: files && sortedMap(Object.entries(files).map(([k, f]) => [k, fileJSON(f)])),
    createdAt: cfg.createdAt || undefined,
  });
}

/** Go's `map[string]struct{}`, a set. */
export const GO_SET: GoType = map(struct());

/** The VM fields the config blob copies from `snapshot.json`, with the same names and tags in both. */
export const VM_FIELDS: readonly GoField[] = [
  oe("hypervisor", STRING),
  oe("cpu", INT64_SAFE),
  oe("memory", INT64_SAFE),
  oe("storage", INT64_SAFE),
  oe("nics", INT64_SAFE),
  oe("network", STRING),
  oe("windows", BOOL),
];

/** `manifest.SnapshotFile`. */
const SNAPSHOT_FILE = struct(
  oe("mode", INT64_SAFE),
  oe("sparseMap", STRING),
  oe("sparseSize", INT64_SAFE),
  oe("size", INT64_SAFE),
  oe("chunks", slice(STRING)),
);

/** `manifest.SnapshotConfig` (`createdAt` kept as the text Go wrote). */
const SNAPSHOT_CONFIG = struct(
  always("schemaVersion", STRING),
  always("snapshotId", STRING),
  oe("description", STRING),
  oe("image", STRING),
  oe("imageDigest", STRING),
  oe("imageType", STRING),
  oe("imageBlobIds", GO_SET),
  ...VM_FIELDS,
  oe("files", map(SNAPSHOT_FILE)),
  oe("createdAt", STRING),
);

/** A config as decoded: every field, nil maps absent, the blob ids still a set. */
type DecodedConfig = Omit<SnapshotConfig, "imageBlobIds"> & { readonly imageBlobIds?: Readonly<Record<string, object>> };

/**
 * Parses a config blob (Go's `json.Unmarshal` into `manifest.SnapshotConfig`).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` with Go's texts.
 * @internal
 */
export function parseSnapshotConfig(raw: Uint8Array | string): SnapshotConfig {
  const { imageBlobIds, ...cfg } = unmarshalGo(SNAPSHOT_CONFIG, raw, "SnapshotConfig") as DecodedConfig;
  return imageBlobIds === undefined ? cfg : { ...cfg, imageBlobIds: Object.keys(imageBlobIds) };
}

/** Decodes a parsed config blob with Go's rules (case-insensitive keys, last wins, `null` = unset). */
export function decodeSnapshotConfig(v: unknown): SnapshotConfig {
  return parseSnapshotConfig(JSON.stringify(v === undefined ? null : v));
}
