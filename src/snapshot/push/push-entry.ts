import { CocoonError, isCocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { mediaTypeForCocoonFile } from "../../oci/media-types.js";
import type { Uploader } from "../../oci/registry.js";
import type { SnapshotFile } from "../../oci/snapshot-config.js";
import type { EntryBody } from "../io/byte-reader.js";
import { STREAM_ABOVE, uploadLayer, uploadStreamed } from "./blob-upload.js";
import type { ExportConfig } from "../codec/envelope.js";
import type { UploadPool } from "../io/upload-pool.js";
import { enqueueChunks } from "./chunked-upload.js";
import { detachWhole } from "../io/chunk-buffers.js";
import { positionalPieces } from "../io/positional-pieces.js";
import { catching } from "../io/catching.js";
import { uploadCompressed } from "./compressed-upload.js";
import type { PipelineParams, PushOptions } from "./push-options.js";
import { sparseFileMeta } from "../codec/sparse-meta.js";
import type { TarEntry } from "../codec/tar-reader.js";

const COMPRESS_MIN = 1 << 20;

/** What a push has read so far: the envelope, per-file metadata and the layers of each file. */
export interface Collected {
  cfg?: ExportConfig;
  readonly files: Map<string, SnapshotFile>;
  readonly groups: { name: string; descs: Descriptor[] }[];
  encoded: boolean;
}

/** Passes `body` through, rethrowing a read failure as `ERR_SNAPSHOT_FORMAT` `<what>: <message>`. */
export function readFailures(body: AsyncIterable<Uint8Array>, what: string): AsyncIterableIterator<Uint8Array> {
  return catching(body, (err) => new CocoonError("ERR_SNAPSHOT_FORMAT", `${what}: ${messageOf(err)}`, { cause: err }));
}

/** Reads a whole body, wrapping a read failure with `what`. */
export async function drain(body: AsyncIterable<Uint8Array>, what: string): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for await (const p of readFailures(body, what)) parts.push(p);
  return parts;
}

function uploadFailure(title: string, err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  const code = isCocoonError(err) ? err.code : "ERR_SNAPSHOT_TRANSFER";
  return new CocoonError(code, `upload ${title}: ${messageOf(err)}`, { cause: err });
}

/** Uploads one export file: v1 raw, or (v2) chunked and/or zstd-compressed, recording its layers in `out`. */
export async function uploadEntry(
  up: Uploader,
  opts: PushOptions,
  entry: TarEntry,
  body: EntryBody,
  params: PipelineParams | undefined,
  pool: UploadPool,
  out: Collected,
): Promise<void> {
  const meta = sparseFileMeta(entry);
  const progress = opts.progress ?? ((): void => undefined);
  if (params === undefined) {
    out.files.set(entry.name, meta);
  } else {
    out.files.set(entry.name, { ...meta, size: entry.size });
    const compress = (opts.zstdLevel ?? 0) > 0 && entry.size >= COMPRESS_MIN;
    const file = {
      up,
      repo: opts.name,
      title: entry.name,
      size: entry.size,
      body,
      level: opts.zstdLevel ?? 0,
      compress,
      signal: opts.signal,
      progress,
    };
    if (params.chunkSize > 0 && (compress || entry.size > params.chunkSize)) {
      out.encoded = true;
      out.groups.push({ name: entry.name, descs: await enqueueChunks(file, params.chunkSize, pool) });
      return;
    }
    if (compress) {
      out.encoded = true;
      const desc = await uploadCompressed(file, params.workers).catch((err: unknown) =>
        Promise.reject(uploadFailure(entry.name, err, opts.signal)),
      );
      out.groups.push({ name: entry.name, descs: [desc] });
      progress(`  ${entry.name} -> ${desc.digest} (${desc.size} bytes)`);
      return;
    }
  }
  const mediaType = mediaTypeForCocoonFile(entry.name);
  const put = entry.size > STREAM_ABOVE ? up.putBlobStreamed?.bind(up) : undefined;
  // From an export file, the layer is read by position into a few reused buffers as it is sent.
  const region = put === undefined ? undefined : body.region(entry.size);
  const ring: Buffer[] = [];
  const upload =
    put === undefined
      ? uploadLayer(up, opts.name, entry.name, mediaType, await drain(body, `upload ${entry.name}: buffer entry`), undefined, opts.signal)
      : region === undefined
        ? uploadStreamed(put, opts.name, entry.name, mediaType, readFailures(body, "buffer entry"), opts.signal)
        : uploadStreamed(
            put,
            opts.name,
            entry.name,
            mediaType,
            readFailures(positionalPieces(region, entry.size, ring), "buffer entry"),
            opts.signal,
            entry.size,
          );
  const desc = await upload.catch((err: unknown) => Promise.reject(uploadFailure(entry.name, err, opts.signal)));
  // Every request of the upload was answered: nothing reads the ring any more. Freed now, not at a
  // collection: a process that pushes again would otherwise hold each push's ring as garbage.
  for (const buffer of ring) detachWhole(buffer);
  out.groups.push({ name: entry.name, descs: [desc] });
  progress(`  ${entry.name} -> ${desc.digest} (${desc.size} bytes)`);
}
