import type { Writable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { canonicalDigestProblem, sha256Digest } from "../../oci/digest.js";
import { isRegistryError } from "../../oci/errors.js";
import { DEFAULT_TAG } from "../../oci/reference.js";
import type { OCIManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { transferError } from "../errors.js";
import { snapshotManifest } from "./manifest.js";
import { required, writeSnapshot } from "./pull.js";
import type { StreamOptions } from "./stream-options.js";

/** Options of {@link pullSnapshot}: those of {@link streamSnapshot} but the repository and the output, which it takes as arguments. */
export type PullOptions = Omit<StreamOptions, "name" | "output">;

/** What {@link pullSnapshot} pulled. */
export interface PullResult {
  /** The repository (VM name). */
  readonly name: string;
  /** The tag or digest the manifest was fetched by. */
  readonly reference: string;
  /** `sha256:<hex>` of the manifest (or image index) the reference named, as served. */
  readonly manifestDigest: string;
  /** The snapshot's config blob: id, VM shape, files. */
  readonly config: SnapshotConfig;
}

const badReference = (reference: unknown, why: string): CocoonError =>
  new CocoonError("ERR_INVALID_REFERENCE", `snapshot pull: reference ${JSON.stringify(String(reference))} ${why}`);

/** `vm`, `vm:tag` or `vm[:tag]@sha256:<hex>` (a tag before a digest is dropped, as go-containerregistry drops it). */
function splitReference(reference: string): { name: string; ref: string } {
  if (typeof reference !== "string") throw badReference(reference, "must be a string");
  const at = reference.indexOf("@");
  const repoPart = at < 0 ? reference : reference.slice(0, at);
  const colon = repoPart.indexOf(":");
  const name = colon < 0 ? repoPart : repoPart.slice(0, colon);
  if (name === "") throw badReference(reference, "names no repository");
  if (at >= 0) {
    const digest = reference.slice(at + 1);
    const problem = canonicalDigestProblem(digest);
    if (problem !== undefined) throw badReference(reference, `has a bad digest: ${problem}`);
    return { name, ref: digest };
  }
  const tag = colon < 0 ? DEFAULT_TAG : repoPart.slice(colon + 1);
  if (tag === "") throw badReference(reference, "has an empty tag");
  return { name, ref: tag };
}

/**
 * Pulls the snapshot `reference` names and writes it into `output` as the `cocoon snapshot
 * import` tar, in one call as {@link pushSnapshot} pushes: the manifest is fetched, an image index
 * resolved to its linux/amd64 child, then the artifact streamed as {@link streamSnapshot} streams
 * it (every blob digest- and size-checked, within the memory budget).
 *
 * `reference` is registry-relative, as `pushSnapshot`'s `name` and `tag`: `vm` (tag `latest`),
 * `vm:hibernate`, or `vm@sha256:<hex>`.
 *
 * @param registry - Where the snapshot is; its `getManifest` and `getBlob` are the only calls made.
 * @param reference - The repository (VM name) and the tag or digest.
 * @param output - Receives the import tar; ended on success, destroyed on failure.
 * @param options - The local name, budget, prefetch, progress, clock and abort signal.
 * @throws The registry's `ERR_REGISTRY_NOT_FOUND` when the reference names no manifest; otherwise
 * as {@link streamSnapshot}: `ERR_SNAPSHOT_FORMAT`, `ERR_SNAPSHOT_INTEGRITY`, `ERR_SNAPSHOT_TRANSFER`
 * (the cause says why), the signal's reason when aborted. `ERR_INVALID_REFERENCE` for a malformed
 * reference and `ERR_INVALID_ARGUMENT` for a bad output, before any request.
 * @example
 * ```ts
 * const importer = spawn("cocoon", ["snapshot", "import"], { stdio: ["pipe", "inherit", "inherit"] });
 * try {
 *   const pulled = await pullSnapshot(registry, `${vm}:hibernate`, importer.stdin, { memoryBudgetMiB: 512 });
 *   console.log(`restoring ${pulled.config.snapshotId}`);
 * } catch (err) {
 *   if (isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")) freshBoot();
 *   else throw err;
 * }
 * ```
 */
export async function pullSnapshot(
  registry: Downloader,
  reference: string,
  output: Writable,
  options: PullOptions = {},
): Promise<PullResult> {
  const { name, ref } = splitReference(reference);
  const named = `${name}${ref.includes(":") ? "@" : ":"}${ref}`;
  const opts: StreamOptions = { ...(options as PullOptions | undefined), name, output };
  required(opts);
  let manifest: OCIManifest;
  let manifestDigest: string;
  try {
    opts.signal?.throwIfAborted();
    const fetched = await registry
      .getManifest(name, ref, opts.signal ? { signal: opts.signal } : {})
      .catch((err: unknown) =>
        Promise.reject(isRegistryError(err, "ERR_REGISTRY_NOT_FOUND") ? err : transferError(`get manifest ${named}`, err, opts.signal)),
      );
    if (!((fetched as Partial<typeof fetched> | undefined)?.data instanceof Uint8Array)) {
      throw new CocoonError("ERR_SNAPSHOT_TRANSFER", `get manifest ${named}: the registry gave no manifest bytes`);
    }
    manifestDigest = sha256Digest(fetched.data);
    manifest = await snapshotManifest(fetched.data, registry, name, opts.signal);
  } catch (err) {
    output.destroy();
    throw opts.signal?.aborted ? opts.signal.reason : err;
  }
  const config = await writeSnapshot(manifest, registry, opts);
  return { name, reference: ref, manifestDigest, config };
}
