import { CocoonError } from "../errors.js";
import { unmarshalGo } from "../internal/go/index.js";
import { CLASSIFIED_MANIFEST, DESCRIPTOR, OCI_MANIFEST } from "./manifest-go-types.js";
import { ArtifactType, MediaType, OCIAnnotation } from "./media-types.js";

/** An OCI content descriptor. */
export interface Descriptor {
  /** Media type of the content. */
  readonly mediaType: string;
  /** `sha256:<hex>` of the content. */
  readonly digest: string;
  /** Length of the content in bytes. */
  readonly size: number;
  /** Annotations; the layer title is {@link OCIAnnotation.Title}. */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  /** Artifact type of the content, when it is itself a manifest. */
  readonly artifactType?: string | undefined;
}

/** One platform entry of an image index. */
export interface IndexManifest {
  /** Media type of the child manifest. */
  readonly mediaType: string;
  /** Digest of the child manifest. */
  readonly digest: string;
  /** Size of the child manifest. */
  readonly size: number;
  /** Platform of the child, when given. */
  readonly platform?: { readonly architecture?: string; readonly os?: string } | undefined;
}

/** An OCI image manifest or image index, as Go's `manifest.OCIManifest` holds it. */
export interface OCIManifest {
  /** Always 2 for manifests this library writes. */
  readonly schemaVersion: number;
  /** Top-level media type (may be empty). */
  readonly mediaType?: string | undefined;
  /** Artifact type (may be empty). */
  readonly artifactType?: string | undefined;
  /** The config descriptor (all zero when absent). */
  readonly config: Descriptor;
  /** The layers; `null` is written as Go writes a nil slice. */
  readonly layers: readonly Descriptor[] | null;
  /** Index children. */
  readonly manifests?: readonly IndexManifest[] | undefined;
  /** The manifest this one refers to (OCI 1.1 referrers). */
  readonly subject?: Descriptor | undefined;
  /** Manifest annotations. */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

/** The artifact kinds {@link classifyManifest} tells apart (Go's `manifest.Kind`). */
export const ManifestKind = {
  Unknown: "unknown",
  ContainerImage: "container-image",
  CloudImage: "cloud-image",
  Snapshot: "snapshot",
  ImageIndex: "image-index",
} as const;
/** One of the {@link ManifestKind} values. */
export type ManifestKind = (typeof ManifestKind)[keyof typeof ManifestKind];

/** Returns a descriptor's title annotation, or `""`. */
export function descriptorTitle(desc: Descriptor): string {
  return desc.annotations?.[OCIAnnotation.Title] ?? "";
}

function classifyFields(artifactType: string, configMediaType: string, topMediaType: string): ManifestKind {
  if (artifactType === ArtifactType.OSImage || artifactType === ArtifactType.WindowsImage) return ManifestKind.CloudImage;
  if (artifactType === ArtifactType.Snapshot || artifactType === ArtifactType.SnapshotV2) return ManifestKind.Snapshot;
  if (configMediaType === MediaType.OCIImageConfig || configMediaType === MediaType.DockerConfig) {
    return ManifestKind.ContainerImage;
  }
  if (topMediaType === MediaType.OCIIndex || topMediaType === MediaType.DockerIndex) return ManifestKind.ImageIndex;
  return ManifestKind.Unknown;
}

/** Classifies an already-parsed manifest (Go's `ClassifyParsed`). */
export function classifyParsedManifest(m: OCIManifest): ManifestKind {
  return classifyFields(m.artifactType ?? "", m.config.mediaType, m.mediaType ?? "");
}

/**
 * Classifies raw manifest JSON, reading only `artifactType`, `config.mediaType` and `mediaType`.
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` when the bytes are not a JSON object.
 */
export function classifyManifest(raw: Uint8Array | string): ManifestKind {
  try {
    const m = unmarshalGo(CLASSIFIED_MANIFEST, raw, "", { rootName: "manifest" }) as Classified;
    return classifyFields(m.artifactType, m.config.mediaType, m.mediaType);
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `classify manifest: ${(err as Error).message}`, { cause: err });
  }
}

/** The fields of a manifest {@link classifyManifest} reads, as decoded. */
interface Classified {
  readonly mediaType: string;
  readonly artifactType: string;
  readonly config: { readonly mediaType: string };
}

/** A descriptor as decoded: every field, nil ones absent. */
type DecodedDescriptor = Omit<Descriptor, "artifactType"> & { readonly artifactType: string };

/** A manifest as decoded: every field, nil ones absent. */
interface DecodedManifest {
  readonly schemaVersion: number;
  readonly mediaType: string;
  readonly artifactType: string;
  readonly config: DecodedDescriptor;
  readonly layers?: readonly DecodedDescriptor[];
  readonly manifests?: readonly IndexManifest[];
  readonly subject?: DecodedDescriptor;
  readonly annotations?: Readonly<Record<string, string>>;
}

function descriptor(d: DecodedDescriptor): Descriptor {
  return { mediaType: d.mediaType, digest: d.digest, size: d.size, annotations: d.annotations, artifactType: d.artifactType || undefined };
}

/**
 * Decodes one descriptor from a parsed JSON value with Go's rules (keys matched as Go matches them).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` with Go's `json: cannot unmarshal …` text.
 */
export function decodeDescriptor(v: unknown, path: string): Descriptor {
  return descriptor(unmarshalGo(DESCRIPTOR, JSON.stringify(v === undefined ? null : v), path) as DecodedDescriptor);
}

/**
 * Parses raw manifest JSON into an {@link OCIManifest} (Go's `manifest.Parse`).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` with Go's `parse oci manifest: …` text.
 */
export function parseManifest(raw: Uint8Array | string): OCIManifest {
  try {
    const m = unmarshalGo(OCI_MANIFEST, raw, "OCIManifest") as DecodedManifest;
    return {
      schemaVersion: m.schemaVersion,
      mediaType: m.mediaType,
      artifactType: m.artifactType,
      config: descriptor(m.config),
      layers: m.layers ? m.layers.map(descriptor) : null,
      manifests: m.manifests,
      subject: m.subject && descriptor(m.subject),
      annotations: m.annotations,
    };
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse oci manifest: ${(err as Error).message}`, { cause: err });
  }
}
