import { RegistryError } from "../errors.js";
import { MANIFEST_ACCEPT } from "../oci-registry-options.js";
import type { Reference } from "../reference.js";
import { discardBody, readBody } from "./body.js";
import { headedManifestDigest } from "./manifest-head.js";
import { errorForStatus, MAX_ERROR_BODY_BYTES } from "./registry-http-error.js";
import type { RegistryRequest } from "./transport.js";
import type { RegistryResponse } from "./registry-response.js";

/** Sends one request of a manifest delete (the client adds registry, scope, signal and deadline). */
export type ManifestRequest = (
  action: "pull" | "delete",
  req: Omit<RegistryRequest, "registry" | "scope" | "signal" | "deadline">,
) => Promise<RegistryResponse>;

/** How a delete reads and what it must keep. */
export interface DeleteContext {
  /** Tags whose manifest must survive a delete by digest. */
  readonly keepTags: readonly string[];
  /** Longest stall while reading the refusal's body. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Deletes the manifest `ref` names, as Go does, by the reference given; absent counts as deleted.
 *
 * A registry that refuses to delete by tag (405, or 400 `UNSUPPORTED`) gets the tag resolved with
 * a `HEAD` (its `Docker-Content-Digest` checked before it goes into a URL) and its digest deleted
 * instead, which also removes the manifest's other tags: unless one of `ctx.keepTags` resolves to
 * the same digest, in which case nothing is deleted and the call rejects with `ERR_REGISTRY_STATUS`.
 */
export async function deleteManifestRef(
  ref: Reference,
  what: string,
  url: (identifier: string) => string,
  send: ManifestRequest,
  ctx: DeleteContext,
): Promise<void> {
  const target = url(ref.identifier);
  const first = await send("delete", { method: "DELETE", url: target, what, ok: [200, 202, 404, 400, 405] });
  if (first.status !== 400 && first.status !== 405) {
    await discardBody(first);
    return;
  }
  const text = await readRefusal(first, what, `DELETE ${target}`, ctx);
  const unsupported = first.status === 405 || /"code"\s*:\s*"UNSUPPORTED"/.test(text);
  if (!unsupported || ref.kind === "digest") throw errorForStatus(what, `DELETE ${target}`, first.status, text);
  const digest = await resolve(ref.identifier, `resolve ${ref.string}`, url, send);
  if (digest === undefined) return;
  for (const tag of ctx.keepTags) {
    if (tag === ref.identifier) continue;
    if ((await resolve(tag, `resolve kept tag ${tag}`, url, send)) === digest) {
      throw new RegistryError(
        "ERR_REGISTRY_STATUS",
        `${what}: the registry deletes only by digest, and the kept tag ${tag} names the same manifest ${digest}; nothing deleted`,
        { request: `DELETE ${url(digest)}` },
      );
    }
  }
  const second = await send("delete", { method: "DELETE", url: url(digest), what, ok: [200, 202, 404] });
  await discardBody(second);
}

/** The digest `tag` names (checked), or `undefined` when the registry's manifest endpoint answers 404. */
async function resolve(tag: string, what: string, url: (identifier: string) => string, send: ManifestRequest): Promise<string | undefined> {
  const target = url(tag);
  const head = await send("pull", { method: "HEAD", url: target, what, ok: [200, 404], headers: { accept: MANIFEST_ACCEPT } });
  await discardBody(head);
  if (head.status === 404) return undefined;
  return headedManifestDigest(head, what, `HEAD ${target}`);
}

/** The refusal's body, capped; a body too long, stalled or broken reads as empty. */
async function readRefusal(response: RegistryResponse, what: string, request: string, ctx: DeleteContext): Promise<string> {
  try {
    const body = await readBody(response, { what, request, idleTimeoutMs: ctx.timeoutMs, signal: ctx.signal }, MAX_ERROR_BODY_BYTES);
    return Buffer.from(body).toString("utf8");
  } catch {
    if (ctx.signal?.aborted === true) throw ctx.signal.reason;
    return "";
  }
}
