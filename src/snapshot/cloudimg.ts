import type { Writable } from "node:stream";
import { CocoonError } from "../errors.js";
import {
  classifyParsedManifest,
  type Descriptor,
  descriptorTitle,
  ManifestKind,
  type OCIManifest,
  parseManifest,
} from "../oci/manifest-types.js";
import { isDiskMediaType } from "../oci/media-types.js";
import type { Downloader } from "../oci/registry.js";
import { OutputSink, outputProblem } from "./io/output-sink.js";
import { verifiedBlob } from "./pull/blob-reader.js";
import { checkRepositoryName } from "./repository-name.js";

/** Options of {@link streamCloudImage}. */
export interface CloudImageOptions {
  /** Repository to read the disk blobs from. */
  readonly name: string;
  /** Receives the disk (the qcow2 or raw parts, concatenated); ended on success, destroyed on failure; refused when already ended or destroyed. */
  readonly output: Writable;
  /** Aborts the stream, also while waiting for a slow output; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Leave `output` open on success (default: end it); the call then resolves once the output has taken every byte. */
  readonly keepOpen?: boolean;
}

/** The disk layers in the order Go writes them: the 8 exact disk types, stable-sorted by title in UTF-8 byte order. */
export function diskLayers(layers: readonly Descriptor[]): Descriptor[] {
  return layers
    .filter((l) => isDiskMediaType(l.mediaType))
    .sort((a, b) => Buffer.compare(Buffer.from(descriptorTitle(a)), Buffer.from(descriptorTitle(b))));
}

/** Refuses a bad name, or an output that cannot take bytes, before any request; then watches the output. */
function sinkFor(opts: CloudImageOptions): OutputSink {
  if (!(opts as CloudImageOptions | undefined)?.name) throw new CocoonError("ERR_INVALID_ARGUMENT", "cloud image stream: name is required");
  checkRepositoryName("cloud image stream: name", opts.name);
  const problem = outputProblem(opts.output);
  if (problem !== undefined) throw new CocoonError("ERR_INVALID_ARGUMENT", `cloud image stream: output ${problem}`);
  return new OutputSink(opts.output, "write cloud image", opts.signal);
}

/**
 * Streams an already-parsed cloud-image manifest's disk layers into `output` (Go's
 * `cloudimg.StreamParsed`). Each blob is length- and digest-checked. Resolves only once the
 * output has taken every byte and finished (or, kept open, taken every byte) without error.
 *
 * @throws As {@link streamCloudImage}.
 */
export async function streamCloudImageParsed(m: OCIManifest, dl: Downloader, opts: CloudImageOptions): Promise<void> {
  await writeDisks(m, dl, opts, sinkFor(opts));
}

async function writeDisks(m: OCIManifest, dl: Downloader, opts: CloudImageOptions, sink: OutputSink): Promise<void> {
  try {
    opts.signal?.throwIfAborted();
    const disks = diskLayers(m.layers ?? []);
    if (disks.length === 0) throw new CocoonError("ERR_SNAPSHOT_FORMAT", "cloud image manifest has no disk layers");
    for (const layer of disks) {
      for await (const chunk of verifiedBlob(dl, opts.name, layer, opts.signal)) await sink.write(chunk);
    }
    await (opts.keepOpen ? sink.flush() : sink.end());
  } catch (err) {
    sink.destroy();
    throw opts.signal?.aborted ? opts.signal.reason : err;
  }
}

/**
 * Streams a cloud-image artifact (`os-image` or the legacy `windows-image` artifact type) into
 * `cocoon image import` (Go's `cloudimg.Stream`).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` for a manifest that is not a cloud image or has
 * no disk layer, `ERR_SNAPSHOT_INTEGRITY` for a blob that differs from its descriptor,
 * `ERR_SNAPSHOT_TRANSFER` for a failed registry call; `ERR_SNAPSHOT_OUTPUT` (the output's error as
 * `cause`) when a write, the end or the output's `error` event fails at any point; the signal's
 * reason when aborted, also while the output is stuck. `ERR_INVALID_ARGUMENT` or
 * `ERR_INVALID_REFERENCE`, before any request, for a bad name or an output already ended or destroyed.
 * @example
 * ```ts
 * const { data } = await registry.getManifest("ubuntu", "24.04");
 * await streamCloudImage(data, registry, { name: "ubuntu", output: importer.stdin });
 * ```
 */
export async function streamCloudImage(raw: Uint8Array, dl: Downloader, opts: CloudImageOptions): Promise<void> {
  const sink = sinkFor(opts);
  let m: OCIManifest;
  try {
    m = parseManifest(raw);
  } catch (err) {
    sink.destroy();
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse manifest: ${(err as Error).message}`, { cause: err });
  }
  const kind = classifyParsedManifest(m);
  if (kind !== ManifestKind.CloudImage) {
    sink.destroy();
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `manifest is ${kind}, not a cloud image`);
  }
  await writeDisks(m, dl, opts, sink);
}
