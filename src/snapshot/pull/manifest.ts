import { CocoonError, isCocoonError } from "../../errors.js";
import { classifyParsedManifest, type IndexManifest, ManifestKind, type OCIManifest, parseManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import { transferError } from "../errors.js";

/**
 * The pull's first step (Go's `Stream` up to `StreamParsed`): parses `raw`, resolves an image
 * index to its child ({@link pickIndexChild}, fetched from `name`) and refuses any manifest that
 * is not a snapshot. A parse failure is prefixed `parse manifest: ` or `parse child manifest: `.
 */
export async function snapshotManifest(raw: Uint8Array, dl: Downloader, name: string, signal?: AbortSignal): Promise<OCIManifest> {
  let m = parsedAs("parse manifest", raw);
  if (classifyParsedManifest(m) === ManifestKind.ImageIndex) {
    const child = pickIndexChild(m);
    let childRaw: Uint8Array;
    try {
      childRaw = (await dl.getManifest(name, child.digest, signal ? { signal } : {})).data;
    } catch (err) {
      throw transferError(`get child manifest ${child.digest}`, err, signal);
    }
    m = parsedAs("parse child manifest", childRaw);
  }
  const kind = classifyParsedManifest(m);
  if (kind !== ManifestKind.Snapshot) throw new CocoonError("ERR_SNAPSHOT_FORMAT", `manifest is ${kind}, not a snapshot`);
  return m;
}

/** `parseManifest`, its `ERR_SNAPSHOT_FORMAT` prefixed with `context` as Go wraps it. */
function parsedAs(context: string, raw: Uint8Array): OCIManifest {
  try {
    return parseManifest(raw);
  } catch (err) {
    if (!isCocoonError(err, "ERR_SNAPSHOT_FORMAT")) throw err;
    throw new CocoonError(err.code, `${context}: ${err.message}`, { cause: err });
  }
}

/** Go's `pickIndexChild`: the first linux/amd64 entry, else the first with a known architecture. */
export function pickIndexChild(m: OCIManifest): IndexManifest {
  let fallback: IndexManifest | undefined;
  for (const c of m.manifests ?? []) {
    if (c.platform?.os === "linux" && c.platform.architecture === "amd64") return c;
    if (fallback === undefined && c.platform !== undefined && c.platform.architecture !== "unknown") fallback = c;
  }
  if (fallback !== undefined) return fallback;
  throw new CocoonError("ERR_SNAPSHOT_FORMAT", "image-index has no usable platform child");
}
