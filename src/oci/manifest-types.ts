import { CocoonError } from "../errors.js";
import { asGoObject, type GoObject, goArray, goInt, goObject, goString, goStringMap, parseGoJSON } from "./go-decode.js";
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

/** The artifact kinds {@link classifyManifest} tells apart. */
export const Kind = {
  Unknown: "unknown",
  ContainerImage: "container-image",
  CloudImage: "cloud-image",
  Snapshot: "snapshot",
  ImageIndex: "image-index",
} as const;
/** One of the {@link Kind} values. */
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Returns a descriptor's title annotation, or `""`. */
export function descriptorTitle(desc: Descriptor): string {
  return desc.annotations?.[OCIAnnotation.Title] ?? "";
}

function classifyFields(artifactType: string, configMediaType: string, topMediaType: string): Kind {
  if (artifactType === ArtifactType.OSImage || artifactType === ArtifactType.WindowsImage) return Kind.CloudImage;
  if (artifactType === ArtifactType.Snapshot || artifactType === ArtifactType.SnapshotV2) return Kind.Snapshot;
  if (configMediaType === MediaType.OCIImageConfig || configMediaType === MediaType.DockerConfig) {
    return Kind.ContainerImage;
  }
  if (topMediaType === MediaType.OCIIndex || topMediaType === MediaType.DockerIndex) return Kind.ImageIndex;
  return Kind.Unknown;
}

/** A top-level `null` decodes to the zero value, as in Go. */
function topObject(v: unknown, path: string): GoObject {
  return v === null ? {} : asGoObject(v, path);
}

/** Classifies an already-parsed manifest (Go's `ClassifyParsed`). */
export function classifyParsedManifest(m: OCIManifest): Kind {
  return classifyFields(m.artifactType ?? "", m.config.mediaType, m.mediaType ?? "");
}

/**
 * Classifies raw manifest JSON, reading only `artifactType`, `config.mediaType` and `mediaType`.
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` when the bytes are not a JSON object.
 */
export function classifyManifest(raw: Uint8Array | string): Kind {
  try {
    const obj = topObject(parseGoJSON(raw), "manifest");
    const config = goObject(obj, "config", "config") ?? {};
    return classifyFields(
      goString(obj, "artifactType", "artifactType"),
      goString(config, "mediaType", "config.mediaType"),
      goString(obj, "mediaType", "mediaType"),
    );
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `classify manifest: ${(err as Error).message}`, { cause: err });
  }
}

/** Decodes one descriptor object. */
export function decodeDescriptor(v: unknown, path: string): Descriptor {
  const obj = asGoObject(v, path);
  return {
    mediaType: goString(obj, "mediaType", `${path}.mediaType`),
    digest: goString(obj, "digest", `${path}.digest`),
    size: goInt(obj, "size", `${path}.size`),
    annotations: goStringMap(obj, "annotations", `${path}.annotations`),
    artifactType: goString(obj, "artifactType", `${path}.artifactType`) || undefined,
  };
}

function decodeIndexManifest(v: unknown, path: string): IndexManifest {
  const obj = asGoObject(v, path);
  const platform: GoObject | undefined = goObject(obj, "platform", `${path}.platform`);
  return {
    mediaType: goString(obj, "mediaType", `${path}.mediaType`),
    digest: goString(obj, "digest", `${path}.digest`),
    size: goInt(obj, "size", `${path}.size`),
    platform: platform && {
      architecture: goString(platform, "architecture", `${path}.platform.architecture`),
      os: goString(platform, "os", `${path}.platform.os`),
    },
  };
}

/**
 * Parses raw manifest JSON into an {@link OCIManifest} (Go's `manifest.Parse`).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` with Go's `parse oci manifest: …` text.
 */
export function parseManifest(raw: Uint8Array | string): OCIManifest {
  try {
    const obj = topObject(parseGoJSON(raw), "OCIManifest");
    const config = goObject(obj, "config", "OCIManifest.config");
    const layers = goArray(obj, "layers", "OCIManifest.layers");
    const manifests = goArray(obj, "manifests", "OCIManifest.manifests");
    const subject = goObject(obj, "subject", "OCIManifest.subject");
    return {
      schemaVersion: goInt(obj, "schemaVersion", "OCIManifest.schemaVersion"),
      mediaType: goString(obj, "mediaType", "OCIManifest.mediaType"),
      artifactType: goString(obj, "artifactType", "OCIManifest.artifactType"),
      config: config ? decodeDescriptor(config, "OCIManifest.config") : { mediaType: "", digest: "", size: 0 },
      layers: layers ? layers.map((l, i) => decodeDescriptor(l, `OCIManifest.layers[${i}]`)) : null,
      manifests: manifests?.map((m, i) => decodeIndexManifest(m, `OCIManifest.manifests[${i}]`)),
      subject: subject === undefined ? undefined : decodeDescriptor(subject, "OCIManifest.subject"),
      annotations: goStringMap(obj, "annotations", "OCIManifest.annotations"),
    };
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse oci manifest: ${(err as Error).message}`, { cause: err });
  }
}
