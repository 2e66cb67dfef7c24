import { CocoonError } from "../errors.js";
import type { IndexManifest, OCIManifest } from "../oci/manifest-types.js";

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
