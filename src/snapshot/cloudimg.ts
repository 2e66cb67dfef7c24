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
import { verifiedBlob } from "./pull/blob-reader.js";

/** Options of {@link streamCloudImage}. */
export interface CloudImageOptions {
  /** Repository to read the disk blobs from. */
  readonly name: string;
  /** Receives the disk (the qcow2 or raw parts, concatenated); ended on success, destroyed on failure. */
  readonly output: Writable;
  /** Aborts the stream; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Leave `output` open on success (default: end it). */
  readonly keepOpen?: boolean;
}

/** The disk layers in the order Go writes them: the 8 exact disk types, stable-sorted by title in UTF-8 byte order. */
export function diskLayers(layers: readonly Descriptor[]): Descriptor[] {
  return layers
    .filter((l) => isDiskMediaType(l.mediaType))
    .sort((a, b) => Buffer.compare(Buffer.from(descriptorTitle(a)), Buffer.from(descriptorTitle(b))));
}

async function write(output: Writable, chunk: Uint8Array): Promise<void> {
  if (!output.write(chunk))
    await new Promise<void>((resolve, reject) => {
      output.once("drain", resolve);
      output.once("close", () => reject(new CocoonError("ERR_SNAPSHOT_TRANSFER", "write cloud image: output closed")));
    });
}

/**
 * Streams an already-parsed cloud-image manifest's disk layers into `output` (Go's
 * `cloudimg.StreamParsed`). Each blob is length- and digest-checked.
 */
export async function streamCloudImageParsed(m: OCIManifest, dl: Downloader, opts: CloudImageOptions): Promise<void> {
  try {
    const disks = diskLayers(m.layers ?? []);
    if (disks.length === 0) throw new CocoonError("ERR_SNAPSHOT_FORMAT", "cloud image manifest has no disk layers");
    for (const layer of disks) {
      for await (const chunk of verifiedBlob(dl, opts.name, layer, opts.signal)) await write(opts.output, chunk);
    }
  } catch (err) {
    opts.output.destroy();
    throw opts.signal?.aborted ? opts.signal.reason : err;
  }
  if (!opts.keepOpen) await new Promise<void>((resolve) => opts.output.end(resolve));
}

/**
 * Streams a cloud-image artifact (`os-image` or the legacy `windows-image` artifact type) into
 * `cocoon image import` (Go's `cloudimg.Stream`).
 *
 * @throws CocoonError `ERR_SNAPSHOT_FORMAT` for a manifest that is not a cloud image or has
 * no disk layer, `ERR_SNAPSHOT_INTEGRITY` for a blob that differs from its descriptor,
 * `ERR_SNAPSHOT_TRANSFER` for a failed registry call.
 * @example
 * ```ts
 * const { data } = await registry.getManifest("ubuntu", "24.04");
 * await streamCloudImage(data, registry, { name: "ubuntu", output: importer.stdin });
 * ```
 */
export async function streamCloudImage(raw: Uint8Array, dl: Downloader, opts: CloudImageOptions): Promise<void> {
  let m: OCIManifest;
  try {
    m = parseManifest(raw);
  } catch (err) {
    opts.output.destroy();
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse manifest: ${(err as Error).message}`, { cause: err });
  }
  const kind = classifyParsedManifest(m);
  if (kind !== ManifestKind.CloudImage) {
    opts.output.destroy();
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `manifest is ${kind}, not a cloud image`);
  }
  await streamCloudImageParsed(m, dl, opts);
}
