import { CocoonError } from "../errors.js";
import { marshalManifest } from "../oci/manifest-json.js";
import { ArtifactType, MediaType, OCIAnnotation } from "../oci/media-types.js";
import type { Uploader } from "../oci/registry.js";
import { marshalSnapshotConfig } from "../oci/snapshot-config.js";
import { messageOf, transferError } from "./blob-reader.js";
import { digestOf, putBlobIfMissing } from "./blob-upload.js";
import { ByteReader, type EntryBody } from "./byte-reader.js";
import { parseEnvelope } from "./envelope.js";
import { PendingEntries } from "./pending-entries.js";
import { type Collected, drain, uploadEntry } from "./push-entry.js";
import { chunksInFlight } from "./memory-budget.js";
import { UploadPool } from "./push-pipeline.js";
import {
  checkPushOptions,
  DEFAULT_BUDGET_MIB,
  type PipelineParams,
  pipelineParams,
  type PushOptions,
  type PushResult,
} from "./push-options.js";
import { sparseFileMeta } from "./sparse-meta.js";
import { readTar, type TarEntry } from "./tar-reader.js";
import { createdAnnotation, createdAt } from "./timestamps.js";

const encoder = new TextEncoder();

async function readEntries(
  stream: AsyncIterable<Uint8Array>,
  up: Uploader,
  opts: PushOptions,
  params: PipelineParams | undefined,
): Promise<Collected> {
  const out: Collected = { files: new Map(), groups: [], encoded: false };
  const budget = ((opts.memoryBudgetMiB ?? 0) > 0 ? (opts.memoryBudgetMiB ?? 0) : DEFAULT_BUDGET_MIB) * 2 ** 20;
  const pool = new UploadPool(
    params && params.chunkSize > 0 ? chunksInFlight(params.workers, params.chunkSize, budget) : (params?.workers ?? 1),
  );
  const reader = new ByteReader(stream);
  const pending = new PendingEntries(budget);
  try {
    const entries = readTar(reader);
    for (;;) {
      opts.signal?.throwIfAborted();
      if (pool.failed) break;
      let next: IteratorResult<{ entry: TarEntry; body: EntryBody }>;
      try {
        next = await entries.next();
      } catch (err) {
        throw new CocoonError("ERR_SNAPSHOT_FORMAT", `read tar entry: ${messageOf(err)}`, { cause: err });
      }
      if (next.done) break;
      const { entry, body } = next.value;
      if (entry.name === "snapshot.json") {
        out.cfg = parseEnvelope(Buffer.concat(await drain(body, "read tar entry")));
        for (const held of pending.drain()) await uploadEntry(up, opts, held.entry, held.body, params, pool, out);
      } else if (entry.typeflag === "0" && out.cfg === undefined) {
        sparseFileMeta(entry);
        await pending.add(
          entry,
          body,
          (err) => new CocoonError("ERR_SNAPSHOT_FORMAT", `upload ${entry.name}: buffer entry: ${messageOf(err)}`, { cause: err }),
        );
      } else if (entry.typeflag === "0") {
        await uploadEntry(up, opts, entry, body, params, pool, out);
      }
    }
    await pool.wait();
  } catch (err) {
    await pool.wait().catch(() => undefined);
    throw err;
  } finally {
    await reader.close();
  }
  opts.signal?.throwIfAborted();
  return out;
}

/**
 * Uploads a `cocoon snapshot export` tar stream as an OCI artifact (Go's `Pusher.Push`): one
 * layer per file (v1), or with the v2 knobs zstd frames and fixed-size chunks, uploaded in
 * parallel within the memory budget. Blobs the registry already holds are not sent again.
 *
 * @throws CocoonError with Go's message: `ERR_INVALID_ARGUMENT` for bad options,
 * `ERR_SNAPSHOT_FORMAT` for a malformed export, `ERR_SNAPSHOT_TRANSFER` for a failed registry
 * call; the signal's reason when aborted.
 * @example
 * ```ts
 * const exported = spawn("cocoon", ["snapshot", "export", "vm-a"]).stdout;
 * const result = await pushSnapshot(exported, registry, { name: "vm-a", tag: "hibernate" });
 * ```
 */
export async function pushSnapshot(stream: AsyncIterable<Uint8Array>, up: Uploader, opts: PushOptions): Promise<PushResult> {
  if (!(opts as PushOptions | undefined)?.name) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot push: name is required");
  if (typeof (stream as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] !== "function") {
    throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot push: the export stream must be an async iterable of bytes");
  }
  checkPushOptions(opts);
  opts.signal?.throwIfAborted();
  const tag = opts.tag || "latest";
  const v2 = (opts.zstdLevel ?? 0) > 0 || (opts.chunkSizeMiB ?? 0) > 0;
  const collected = await readEntries(stream, up, opts, v2 ? pipelineParams(opts) : undefined);
  if (collected.cfg === undefined) throw new CocoonError("ERR_SNAPSHOT_FORMAT", "snapshot.json not found in export stream");
  const now = (opts.now ?? Date.now)();
  const files = new Map(collected.files);
  const layers = collected.groups.flatMap((g) => {
    if (g.descs.length > 1) files.set(g.name, { ...files.get(g.name), chunks: g.descs.map((d) => d.digest) });
    return g.descs;
  });
  const { snapshotId, ...rest } = collected.cfg;
  const configBytes = encoder.encode(
    marshalSnapshotConfig({
      ...rest,
      schemaVersion: collected.encoded ? "v2" : "v1",
      snapshotId,
      files: Object.fromEntries(files),
      createdAt: createdAt(now),
    }),
  );
  const configDigest = digestOf([configBytes]);
  try {
    await putBlobIfMissing(up, opts.name, configDigest, [configBytes], opts.signal);
  } catch (err) {
    throw opts.signal?.aborted ? opts.signal.reason : transferError("upload snapshot config", err);
  }
  const config = { mediaType: MediaType.SnapshotConfig, digest: configDigest, size: configBytes.length };
  const annotations: Record<string, string> = { [OCIAnnotation.Created]: createdAnnotation(now) };
  if (opts.baseImage) annotations[OCIAnnotation.SnapshotBaseImage] = opts.baseImage;
  if (opts.source) annotations[OCIAnnotation.Source] = opts.source;
  if (opts.revision) annotations[OCIAnnotation.Revision] = opts.revision;
  Object.assign(annotations, opts.annotations);
  const manifestBytes = encoder.encode(
    marshalManifest({
      schemaVersion: 2,
      mediaType: MediaType.OCIManifest,
      artifactType: collected.encoded ? ArtifactType.SnapshotV2 : ArtifactType.Snapshot,
      config,
      layers: layers.length > 0 ? layers : null,
      annotations,
    }),
  );
  try {
    await up.putManifest(opts.name, tag, manifestBytes, MediaType.OCIManifest, opts.signal ? { signal: opts.signal } : {});
  } catch (err) {
    throw transferError(`put manifest ${opts.name}:${tag}`, err, opts.signal);
  }
  return {
    name: opts.name,
    tag,
    manifestDigest: digestOf([manifestBytes]),
    manifestBytes,
    totalSize: layers.reduce((n, l) => n + l.size, 0) + config.size,
    layerCount: layers.length,
  };
}
