import { RegistryError } from "../errors.js";
import { MANIFEST_ACCEPT } from "../oci-registry-options.js";
import type { Reference } from "../reference.js";
import { errorForStatus } from "./registry-http-error.js";
import type { RegistryRequest } from "./transport.js";

/** Sends one request of a manifest delete (the client adds registry, scope and signal). */
export type ManifestRequest = (action: "pull" | "delete", req: Omit<RegistryRequest, "registry" | "scope" | "signal">) => Promise<Response>;

/**
 * Deletes the manifest `ref` names, as Go does, by the reference given; absent counts as deleted.
 *
 * A registry that refuses to delete by tag (405, or 400 `UNSUPPORTED`) gets the tag resolved with
 * a `HEAD` and its digest deleted instead, which also removes the manifest's other tags.
 */
export async function deleteManifestRef(
  ref: Reference,
  what: string,
  url: (identifier: string) => string,
  send: ManifestRequest,
): Promise<void> {
  const target = url(ref.identifier);
  const first = await send("delete", { method: "DELETE", url: target, what, ok: [200, 202, 404, 400, 405] });
  if (first.status !== 400 && first.status !== 405) {
    await first.body?.cancel();
    return;
  }
  const text = await first.text().catch(() => "");
  const unsupported = first.status === 405 || /"code"\s*:\s*"UNSUPPORTED"/.test(text);
  if (!unsupported || ref.kind === "digest") throw errorForStatus(what, `DELETE ${target}`, first.status, text);
  const head = await send("pull", {
    method: "HEAD",
    url: target,
    what: `resolve ${ref.string}`,
    ok: [200, 404],
    headers: { accept: MANIFEST_ACCEPT },
  });
  const digest = head.headers.get("docker-content-digest");
  if (head.status === 404) return;
  if (digest === null)
    throw new RegistryError("ERR_REGISTRY_STATUS", `${what}: the registry refuses tag deletes and sent no Docker-Content-Digest`);
  const second = await send("delete", { method: "DELETE", url: url(digest), what, ok: [200, 202, 404] });
  await second.body?.cancel();
}
