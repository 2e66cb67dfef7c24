import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { OCIManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { fetchSnapshotConfig } from "./fetch-config.js";
import { writeImportTar } from "./import-tar.js";
import { validateSnapshotLayers } from "./layer-checks.js";
import { snapshotManifest } from "./manifest.js";
import type { StreamOptions } from "./stream-options.js";

/**
 * Streams a snapshot artifact back as a `cocoon snapshot import` tar (Go's `Stream`). An image
 * index is resolved to its linux/amd64 child (else the first child with a known architecture).
 * Every blob is length- and digest-checked; memory stays within the options' budget.
 *
 * @example
 * ```ts
 * const { data } = await registry.getManifest("vm-a", "hibernate");
 * await streamSnapshot(data, registry, { name: "vm-a", output: child.stdin });
 * ```
 */
export async function streamSnapshot(raw: Uint8Array, dl: Downloader, opts: StreamOptions): Promise<void> {
  required(opts);
  if (!(raw instanceof Uint8Array)) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: manifest bytes must be a Uint8Array");
  let m: OCIManifest;
  try {
    m = await snapshotManifest(raw, dl, opts.name, opts.signal);
  } catch (err) {
    opts.output.destroy();
    throw err;
  }
  await streamSnapshotParsed(m, dl, opts);
}

/**
 * Streams an already-parsed snapshot manifest as a `cocoon snapshot import` tar (Go's `StreamParsed`).
 *
 * @throws CocoonError with Go's message: `ERR_SNAPSHOT_FORMAT` for a malformed artifact,
 * `ERR_SNAPSHOT_INTEGRITY` for a blob that differs from its descriptor, `ERR_SNAPSHOT_TRANSFER`
 * for a failed registry call; the signal's reason when aborted. On failure `output` is destroyed.
 */
export async function streamSnapshotParsed(m: OCIManifest, dl: Downloader, opts: StreamOptions): Promise<void> {
  await writeSnapshot(m, dl, opts);
}

/** {@link streamSnapshotParsed}, resolving to the snapshot's config. @internal */
export async function writeSnapshot(m: OCIManifest, dl: Downloader, opts: StreamOptions): Promise<SnapshotConfig> {
  required(opts);
  let written: SnapshotConfig | undefined;
  await settle(opts, async () => {
    const cfg = await fetchSnapshotConfig(dl, opts.name, m.config, opts.signal).catch((err: unknown) => {
      if (opts.signal?.aborted) throw err;
      const e = err as CocoonError;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- err may be any error, not only a CocoonError
      throw new CocoonError(e.code ?? "ERR_SNAPSHOT_TRANSFER", `fetch snapshot config: ${messageOf(err)}`, { cause: err });
    });
    validateSnapshotLayers(m, cfg);
    await writeImportTar(dl, m, cfg, opts);
    written = cfg;
  });
  return written as SnapshotConfig;
}

/** Refuses options without a name or a writable output. @internal */
export function required(opts: StreamOptions): void {
  if (!(opts as StreamOptions | undefined)?.name) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: name is required");
  if (typeof (opts.output as Partial<StreamOptions["output"]> | undefined)?.write !== "function")
    throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: writer is required");
}

/** Runs the pull; on failure destroys `output` and throws (the signal's reason when aborted), on success ends it unless kept open. @internal */
export async function settle(opts: StreamOptions, run: () => Promise<void>): Promise<void> {
  try {
    opts.signal?.throwIfAborted();
    await run();
  } catch (err) {
    const reason: unknown = opts.signal?.aborted ? opts.signal.reason : err;
    opts.output.destroy();
    throw reason;
  }
  if (!opts.keepOpen) await new Promise<void>((resolve) => opts.output.end(resolve));
}
