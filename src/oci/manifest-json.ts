import { indentGoJSON, marshalGoJSON } from "../internal/go/index.js";
import type { Descriptor, OCIManifest } from "./manifest-types.js";

function descriptorValue(d: Descriptor): object {
  const annotations = d.annotations && Object.keys(d.annotations).length > 0 ? d.annotations : undefined;
  return {
    mediaType: d.mediaType,
    digest: d.digest,
    size: d.size,
    annotations: annotations && new Map(Object.entries(annotations)),
    artifactType: d.artifactType || undefined,
  };
}

/** Writes a manifest exactly as Go's `json.MarshalIndent(m, "", "  ")` does (`"layers": null` for a nil list). */
export function marshalManifest(m: OCIManifest): string {
  const annotations = m.annotations && Object.keys(m.annotations).length > 0 ? m.annotations : undefined;
  return indentGoJSON(
    marshalGoJSON({
      schemaVersion: m.schemaVersion,
      mediaType: m.mediaType || undefined,
      artifactType: m.artifactType || undefined,
      config: descriptorValue(m.config),
      layers: m.layers === null ? null : m.layers.map(descriptorValue),
      manifests: m.manifests && m.manifests.length > 0 ? m.manifests : undefined,
      subject: m.subject && descriptorValue(m.subject),
      annotations: annotations && new Map(Object.entries(annotations)),
    }),
  );
}
