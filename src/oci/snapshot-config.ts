import { marshalGoJSON } from "../meta/go-json.js";
import { asGoObject, type GoObject, goArray, goBool, goInt, goObject, goString } from "./go-decode.js";

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

/** Reads the keys of a Go `map[string]struct{}` member. */
export function decodeGoSet(obj: GoObject, field: string, path: string): string[] | undefined {
  const set = goObject(obj, field, path);
  if (set === undefined) return undefined;
  return Object.keys(set).filter((k) => set[k] !== null);
}

function decodeFile(v: unknown, path: string): SnapshotFile {
  const obj = asGoObject(v, path);
  const chunks = goArray(obj, "chunks", `${path}.chunks`)?.map((c, i) => {
    if (typeof c !== "string") throw new TypeError(`json: cannot unmarshal into Go struct field ${path}.chunks[${i}] of type string`);
    return c;
  });
  return {
    mode: goInt(obj, "mode", `${path}.mode`),
    sparseMap: goString(obj, "sparseMap", `${path}.sparseMap`),
    sparseSize: goInt(obj, "sparseSize", `${path}.sparseSize`),
    size: goInt(obj, "size", `${path}.size`),
    ...(chunks && { chunks }),
  };
}

/** Decodes a parsed config blob with Go's rules (case-insensitive keys, last wins, `null` = unset). */
export function decodeSnapshotConfig(v: unknown): SnapshotConfig {
  const obj = asGoObject(v, "SnapshotConfig");
  const files = goObject(obj, "files", "SnapshotConfig.files");
  const blobIds = decodeGoSet(obj, "imageBlobIds", "SnapshotConfig.imageBlobIds");
  return {
    schemaVersion: goString(obj, "schemaVersion", "SnapshotConfig.schemaVersion"),
    snapshotId: goString(obj, "snapshotId", "SnapshotConfig.snapshotId"),
    description: goString(obj, "description", "SnapshotConfig.description"),
    image: goString(obj, "image", "SnapshotConfig.image"),
    imageDigest: goString(obj, "imageDigest", "SnapshotConfig.imageDigest"),
    imageType: goString(obj, "imageType", "SnapshotConfig.imageType"),
    ...(blobIds && { imageBlobIds: blobIds }),
    hypervisor: goString(obj, "hypervisor", "SnapshotConfig.hypervisor"),
    cpu: goInt(obj, "cpu", "SnapshotConfig.cpu"),
    memory: goInt(obj, "memory", "SnapshotConfig.memory"),
    storage: goInt(obj, "storage", "SnapshotConfig.storage"),
    nics: goInt(obj, "nics", "SnapshotConfig.nics"),
    network: goString(obj, "network", "SnapshotConfig.network"),
    windows: goBool(obj, "windows", "SnapshotConfig.windows"),
    ...(files && {
      files: Object.fromEntries(
        Object.entries(files)
          .filter(([, f]) => f !== null)
          .map(([k, f]) => [k, decodeFile(f, `SnapshotConfig.files.${k}`)]),
      ),
    }),
    createdAt: goString(obj, "createdAt", "SnapshotConfig.createdAt"),
  };
}
