import { marshalGoJSON } from "../meta/go-json.js";
import type { Descriptor, OCIManifest } from "./manifest-types.js";

/** Re-indents compact JSON the way Go's `json.Indent` does (empty `{}` and `[]` stay on one line). */
export function indentGoJSON(compact: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "{" || c === "[") {
      const next = compact[i + 1];
      if (next === "}" || next === "]") {
        out += c + next;
        i++;
      } else {
        depth++;
        out += `${c}\n${indent.repeat(depth)}`;
      }
    } else if (c === "}" || c === "]") {
      depth--;
      out += `\n${indent.repeat(depth)}${c}`;
    } else if (c === ",") {
      out += `,\n${indent.repeat(depth)}`;
    } else if (c === ":") {
      out += ": ";
    } else {
      out += c;
    }
  }
  return out;
}

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
