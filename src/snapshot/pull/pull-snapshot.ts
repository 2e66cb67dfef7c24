import type { Writable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { sha256Digest } from "../../oci/digest.js";
import { isRegistryError } from "../../oci/errors.js";
import type { OCIManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { transferError } from "../errors.js";
import { splitRelativeReference } from "../repository-name.js";
import { snapshotManifest } from "./manifest.js";
import { TarWriter } from "../codec/tar-writer.js";
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

/**
 * Pulls the snapshot `reference` names and writes it into `output` as the `cocoon snapshot
 * import` tar, in one call as {@link pushSnapshot} pushes: the manifest is fetched, an image index
 * resolved to its linux/amd64 child, then the artifact streamed as {@link streamSnapshot} streams
 * it (every blob digest- and size-checked, within the memory budget).
 *
 * `reference` is registry-relative, as `pushSnapshot`'s `name` and `tag`: `vm` (tag `latest`),
 * `vm:hibernate`, or `vm@sha256:<hex>`, read by `./oci`'s reference parser (go-containerregistry's
 * rules, and no `.` or `..` path component), so `../x:t` never reaches a request.
 *
 * Resolves only once `output` has taken every byte of the tar and finished without error.
 *
 * @param registry - Where the snapshot is; its `getManifest` and `getBlob` are the only calls made.
 * @param reference - The repository (VM name) and the tag or digest.
 * @param output - Receives the import tar; ended on success, destroyed on failure; refused when already ended or destroyed.
 * @param options - The local name, budget, prefetch, progress, clock and abort signal.
 * @throws The registry's `ERR_REGISTRY_NOT_FOUND` when the reference names no manifest; otherwise
 * as {@link streamSnapshot}: `ERR_SNAPSHOT_FORMAT`, `ERR_SNAPSHOT_INTEGRITY`, `ERR_SNAPSHOT_TRANSFER`
 * (the cause says why), `ERR_SNAPSHOT_OUTPUT` when the output fails at any point (a consumer that
 * exits, a full disk at the trailer; the output's error is the cause), the signal's reason when
 * aborted, also while the output is stuck. `ERR_INVALID_REFERENCE` for a malformed reference and
 * `ERR_INVALID_ARGUMENT` for a bad output, before any request.
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
  const { name, ref } = splitRelativeReference("snapshot pull: reference", reference);
  const named = `${name}${ref.includes(":") ? "@" : ":"}${ref}`;
  const opts: StreamOptions = { ...(options as PullOptions | undefined), name, output };
  required(opts);
  const tw = new TarWriter(output, opts.signal);
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
    tw.sink.destroy();
    throw opts.signal?.aborted ? opts.signal.reason : err;
  }
  const config = await writeSnapshot(manifest, registry, opts, tw);
  return { name, reference: ref, manifestDigest, config };
}
