import { checkUploadDigest } from "../digest.js";
import { isCocoonError } from "../../errors.js";
import { RegistryError } from "../errors.js";
import { MANIFEST_MEDIA_TYPES } from "../oci-registry-options.js";
import type { RegistryResponse } from "./registry-response.js";

/**
 * The digest a manifest `HEAD` answered 200 for, checked as go-containerregistry's `remote.Head`
 * checks it: `Docker-Content-Digest` must be a valid `sha256:<64 hex>` (`v1.NewHash`), and a
 * `Content-Type`, when sent, must be a manifest media type. When the reference was a digest, the
 * answer must be for that digest.
 *
 * @throws RegistryError `ERR_REGISTRY_STATUS` for a missing or invalid digest or a foreign content
 * type, `ERR_REGISTRY_DIGEST_MISMATCH` for another digest than the one asked for.
 */
export function headedManifestDigest(response: RegistryResponse, what: string, request: string, expected?: string): string {
  const header = response.headers.get("docker-content-digest") ?? "";
  try {
    checkUploadDigest(header);
  } catch (err) {
    const why = isCocoonError(err) ? err.message : String(err);
    throw new RegistryError(
      "ERR_REGISTRY_STATUS",
      `${what}: the registry answered ${response.status} without a valid Docker-Content-Digest: ${why}`,
      {
        status: response.status,
        request,
      },
    );
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (contentType !== "" && !MANIFEST_MEDIA_TYPES.includes(contentType)) {
    throw new RegistryError(
      "ERR_REGISTRY_STATUS",
      `${what}: the registry answered ${response.status} with Content-Type ${JSON.stringify(contentType)}, not a manifest`,
      {
        status: response.status,
        request,
      },
    );
  }
  if (expected !== undefined && header !== expected) {
    throw new RegistryError("ERR_REGISTRY_DIGEST_MISMATCH", `${what}: the registry answered for ${header}`, {
      status: response.status,
      request,
    });
  }
  return header;
}
