import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { OCIManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { validateSnapshotLayers } from "../artifact-checks.js";
import { TarWriter } from "../codec/tar-writer.js";
import { outputProblem } from "../io/output-sink.js";
import { fetchSnapshotConfig } from "./fetch-config.js";
import { writeImportTar } from "./import-tar.js";
import { snapshotManifest } from "./manifest.js";
import type { StreamOptions } from "./stream-options.js";
import { checkRepositoryName } from "../repository-name.js";

/**
 * Streams a snapshot artifact back as a `cocoon snapshot import` tar (Go's `Stream`). An image
 * index is resolved to its linux/amd64 child (else the first child with a known architecture).
 * Every blob is length- and digest-checked; memory stays within the options' budget. Resolves
 * only once `output` has taken every byte and finished without error.
 *
 * @throws As {@link streamSnapshotParsed}.
 * @example
 * ```ts
 * const { data } = await registry.getManifest("vm-a", "hibernate");
 * await streamSnapshot(data, registry, { name: "vm-a", output: child.stdin });
 * ```
 */
export async function streamSnapshot(raw: Uint8Array, dl: Downloader, opts: StreamOptions): Promise<void> {
  required(opts);
  if (!(raw instanceof Uint8Array)) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: manifest bytes must be a Uint8Array");
  const tw = new TarWriter(opts.output, opts.signal);
  let m: OCIManifest;
  try {
    m = await snapshotManifest(raw, dl, opts.name, opts.signal);
  } catch (err) {
    tw.sink.destroy();
    throw err;
  }
  await writeSnapshot(m, dl, opts, tw);
}

/**
 * Streams an already-parsed snapshot manifest as a `cocoon snapshot import` tar (Go's `StreamParsed`).
 *
 * Resolves only once `output` has taken every byte and finished (or, with `keepOpen`, taken every
 * byte) without error.
 *
 * @throws CocoonError with Go's message: `ERR_SNAPSHOT_FORMAT` for a malformed artifact,
 * `ERR_SNAPSHOT_INTEGRITY` for a blob that differs from its descriptor, `ERR_SNAPSHOT_TRANSFER`
 * for a failed registry call; `ERR_SNAPSHOT_OUTPUT` (the output's error as `cause`) when a write,
 * the end or the output's `error` event fails at any point; the signal's reason when aborted,
 * also while waiting for a slow output. `ERR_INVALID_ARGUMENT`, before any request, for a missing
 * name or an output already ended or destroyed. On failure `output` is destroyed.
 */
export async function streamSnapshotParsed(m: OCIManifest, dl: Downloader, opts: StreamOptions): Promise<void> {
  await writeSnapshot(m, dl, opts);
}

/** {@link streamSnapshotParsed}, resolving to the snapshot's config; `writer` watches the output from its first request on. @internal */
export async function writeSnapshot(m: OCIManifest, dl: Downloader, opts: StreamOptions, writer?: TarWriter): Promise<SnapshotConfig> {
  required(opts);
  const tw = writer ?? new TarWriter(opts.output, opts.signal);
  let written: SnapshotConfig | undefined;
  await settle(opts, tw, async () => {
    const cfg = await fetchSnapshotConfig(dl, opts.name, m.config, opts.signal).catch((err: unknown) => {
      if (opts.signal?.aborted) throw err;
      const e = err as CocoonError;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- err may be any error, not only a CocoonError
      throw new CocoonError(e.code ?? "ERR_SNAPSHOT_TRANSFER", `fetch snapshot config: ${messageOf(err)}`, { cause: err });
    });
    validateSnapshotLayers(m, cfg);
    await writeImportTar(dl, m, cfg, opts, tw);
    written = cfg;
  });
  return written as SnapshotConfig;
}

/** Refuses options without a valid name, or without an output that can still take bytes. @internal */
export function required(opts: StreamOptions): void {
  if (!(opts as StreamOptions | undefined)?.name) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: name is required");
  checkRepositoryName("snapshot stream: name", opts.name);
  if (typeof (opts.output as Partial<StreamOptions["output"]> | undefined)?.write !== "function")
    throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: writer is required");
  const problem = outputProblem(opts.output);
  if (problem !== undefined) throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot stream: output ${problem}`);
}

/**
 * Runs the pull, then ends the output (or, kept open, waits until it has taken every byte); on any
 * failure destroys it and throws (the signal's reason when aborted). @internal
 */
export async function settle(opts: StreamOptions, tw: TarWriter, run: () => Promise<void>): Promise<void> {
  try {
    opts.signal?.throwIfAborted();
    await run();
    await (opts.keepOpen ? tw.sink.flush() : tw.sink.end());
  } catch (err) {
    const reason: unknown = opts.signal?.aborted ? opts.signal.reason : err;
    tw.sink.destroy();
    throw reason;
  }
}
