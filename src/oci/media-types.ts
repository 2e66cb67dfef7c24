/**
 * Media types, artifact types and annotation keys of cocoonstack OCI artifacts (Go's `manifest` constants).
 */
export const MediaType = {
  OCIManifest: "application/vnd.oci.image.manifest.v1+json",
  OCIIndex: "application/vnd.oci.image.index.v1+json",
  DockerIndex: "application/vnd.docker.distribution.manifest.list.v2+json",
  OCIImageConfig: "application/vnd.oci.image.config.v1+json",
  DockerConfig: "application/vnd.docker.container.image.v1+json",
  SnapshotConfig: "application/vnd.cocoonstack.snapshot.config.v1+json",
  DiskQcow2: "application/vnd.cocoonstack.disk.qcow2",
  DiskQcow2Part: "application/vnd.cocoonstack.disk.qcow2.part",
  DiskRaw: "application/vnd.cocoonstack.disk.raw",
  DiskRawPart: "application/vnd.cocoonstack.disk.raw.part",
  WindowsDiskQcow2: "application/vnd.cocoonstack.windows.disk.qcow2",
  WindowsDiskQcow2Part: "application/vnd.cocoonstack.windows.disk.qcow2.part",
  WindowsDiskRaw: "application/vnd.cocoonstack.windows.disk.raw",
  WindowsDiskRawPart: "application/vnd.cocoonstack.windows.disk.raw.part",
  VMConfig: "application/vnd.cocoonstack.vm.config+json",
  VMState: "application/vnd.cocoonstack.vm.state+json",
  VMMemory: "application/vnd.cocoonstack.vm.memory",
  VMCidata: "application/vnd.cocoonstack.vm.cidata",
  Generic: "application/octet-stream",
  Tar: "application/x-tar",
} as const;
/** One of the {@link MediaType} values. */
export type MediaType = (typeof MediaType)[keyof typeof MediaType];

/**
 * Docker's image manifest, which a registry may serve for a tag. Go's `manifest` constants do not
 * name it, so it stays out of {@link MediaType}.
 */
export const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";

/** Artifact types a manifest's `artifactType` names. `WindowsImage` is the legacy name of `OSImage`. */
export const ArtifactType = {
  OSImage: "application/vnd.cocoonstack.os-image.v1+json",
  WindowsImage: "application/vnd.cocoonstack.windows-image.v1+json",
  Snapshot: "application/vnd.cocoonstack.snapshot.v1+json",
  SnapshotV2: "application/vnd.cocoonstack.snapshot.v2+json",
} as const;
/** One of the {@link ArtifactType} values. */
export type ArtifactType = (typeof ArtifactType)[keyof typeof ArtifactType];

/** Annotation keys on manifests and layer descriptors. */
export const OCIAnnotation = {
  Title: "org.opencontainers.image.title",
  Created: "org.opencontainers.image.created",
  Source: "org.opencontainers.image.source",
  Revision: "org.opencontainers.image.revision",
  SnapshotBaseImage: "cocoonstack.snapshot.baseimage",
  ChunkIndex: "cocoonstack.chunk.index",
  ChunkCount: "cocoonstack.chunk.count",
} as const;
/** One of the {@link OCIAnnotation} keys. */
export type OCIAnnotation = (typeof OCIAnnotation)[keyof typeof OCIAnnotation];

const ZSTD_SUFFIX = "+zstd";

const FILE_MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ["config.json", MediaType.VMConfig],
  ["state.json", MediaType.VMState],
  ["memory-ranges", MediaType.VMMemory],
  ["cidata.img", MediaType.VMCidata],
  ["overlay.qcow2", MediaType.DiskQcow2],
]);

const SNAPSHOT_LAYER_TYPES: ReadonlySet<string> = new Set([
  MediaType.VMConfig,
  MediaType.VMState,
  MediaType.VMMemory,
  MediaType.VMCidata,
  MediaType.DiskQcow2,
  MediaType.DiskRaw,
  MediaType.Generic,
]);

const DISK_TYPES: ReadonlySet<string> = new Set([
  MediaType.DiskQcow2,
  MediaType.DiskQcow2Part,
  MediaType.DiskRaw,
  MediaType.DiskRawPart,
  MediaType.WindowsDiskQcow2,
  MediaType.WindowsDiskQcow2Part,
  MediaType.WindowsDiskRaw,
  MediaType.WindowsDiskRawPart,
]);

/**
 * Returns the layer media type of a file of a `cocoon snapshot export` stream: the exact names
 * first, then the `.qcow2` and `.raw` suffixes (case-sensitive), else `application/octet-stream`.
 *
 * @example
 * ```ts
 * mediaTypeForCocoonFile("memory-ranges"); // => "application/vnd.cocoonstack.vm.memory"
 * ```
 */
export function mediaTypeForCocoonFile(name: string): string {
  const exact = FILE_MEDIA_TYPES.get(name);
  if (exact !== undefined) return exact;
  if (name.endsWith(".qcow2")) return MediaType.DiskQcow2;
  if (name.endsWith(".raw")) return MediaType.DiskRaw;
  return MediaType.Generic;
}

/** Reports whether `mediaType` ends in `+zstd`. */
export function isZstdMediaType(mediaType: string): boolean {
  return mediaType.endsWith(ZSTD_SUFFIX);
}

/** Removes one `+zstd` suffix, if there is one. */
export function stripZstd(mediaType: string): string {
  return isZstdMediaType(mediaType) ? mediaType.slice(0, -ZSTD_SUFFIX.length) : mediaType;
}

/** Appends `+zstd` (always, even to a type that already has it, as Go does). */
export function zstdMediaType(mediaType: string): string {
  return mediaType + ZSTD_SUFFIX;
}

/** Reports whether a snapshot reader knows how to restore a layer of this type, zstd or not. */
export function isSnapshotLayerMediaType(mediaType: string): boolean {
  return SNAPSHOT_LAYER_TYPES.has(stripZstd(mediaType));
}

/** Reports whether `mediaType` is one of the eight exact disk layer types (a `+zstd` type is not). */
export function isDiskMediaType(mediaType: string): boolean {
  return DISK_TYPES.has(mediaType);
}
