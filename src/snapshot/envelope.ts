import { CocoonError } from "../errors.js";
import { marshalGoJSON } from "../meta/go-json.js";
import { asGoObject, goBool, goInt, goObject, goString, parseGoJSON } from "../oci/go-decode.js";
import { indentGoJSON } from "../oci/manifest-json.js";
import type { SnapshotConfig } from "../oci/snapshot-config.js";
import { decodeGoSet } from "../oci/snapshot-config.js";

/** The `config` of cocoon's `snapshot.json`, with the config blob's field names. */
export type ExportConfig = Omit<SnapshotConfig, "schemaVersion" | "snapshotId" | "files" | "createdAt"> & {
  /** The snapshot id (`id` in `snapshot.json`). */
  readonly snapshotId: string;
};

/** Writes `snapshot.json` as Go's pull does: version 1, 2-space indent, snake_case keys, a trailing newline. */
export function marshalEnvelope(cfg: SnapshotConfig, localName: string): string {
  const blobIds = cfg.imageBlobIds && cfg.imageBlobIds.length > 0 ? cfg.imageBlobIds : undefined;
  const compact = marshalGoJSON({
    version: 1,
    config: {
      id: cfg.snapshotId || undefined,
      name: localName,
      description: cfg.description || undefined,
      image: cfg.image || undefined,
      image_digest: cfg.imageDigest || undefined,
      image_type: cfg.imageType || undefined,
      image_blob_ids: blobIds && new Map(blobIds.map((id) => [id, {}])),
      hypervisor: cfg.hypervisor || undefined,
      cpu: cfg.cpu || undefined,
      memory: cfg.memory || undefined,
      storage: cfg.storage || undefined,
      nics: cfg.nics || undefined,
      network: cfg.network || undefined,
      windows: cfg.windows === true ? true : undefined,
    },
  });
  return `${indentGoJSON(compact)}\n`;
}

/** Returns the end of the first JSON value in `text` (Go's `json.Decoder.Decode` ignores what follows). */
function firstValueEnd(text: string): number {
  let depth = 0;
  let inString = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
      continue;
    }
    if (/\s/u.test(c) && !started) continue;
    started = true;
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth <= 0) return i + 1;
    } else if (depth === 0 && /[\s,]/u.test(c)) return i;
  }
  return text.length;
}

/** Parses cocoon's `snapshot.json` envelope; Go's errors are prefixed `parse snapshot.json: `. */
export function parseEnvelope(data: Uint8Array): ExportConfig {
  const text = new TextDecoder().decode(data);
  try {
    if (text.trim() === "") throw new Error("EOF");
    const end = firstValueEnd(text);
    let value: unknown;
    try {
      value = parseGoJSON(text.slice(0, end));
    } catch (err) {
      throw new Error(end >= text.length && (err as Error).message.includes("end of JSON") ? "unexpected EOF" : (err as Error).message, {
        cause: err,
      });
    }
    const env = asGoObject(value, "snapshotExportEnvelope");
    const c = goObject(env, "config", "snapshotExportEnvelope.config") ?? {};
    const p = "snapshotExportConfig.config";
    const blobIds = decodeGoSet(c, "image_blob_ids", `${p}.image_blob_ids`);
    return {
      snapshotId: goString(c, "id", `${p}.id`),
      description: goString(c, "description", `${p}.description`),
      image: goString(c, "image", `${p}.image`),
      imageDigest: goString(c, "image_digest", `${p}.image_digest`),
      imageType: goString(c, "image_type", `${p}.image_type`),
      ...(blobIds && { imageBlobIds: blobIds }),
      hypervisor: goString(c, "hypervisor", `${p}.hypervisor`),
      cpu: goInt(c, "cpu", `${p}.cpu`),
      memory: goInt(c, "memory", `${p}.memory`),
      storage: goInt(c, "storage", `${p}.storage`),
      nics: goInt(c, "nics", `${p}.nics`),
      network: goString(c, "network", `${p}.network`),
      windows: goBool(c, "windows", `${p}.windows`),
    };
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse snapshot.json: ${(err as Error).message}`, { cause: err });
  }
}
