import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import { SnapshotTag } from "../../meta/keys.js";
import { marshalManifest } from "../../oci/manifest-json.js";
import { ArtifactType, MediaType, OCIAnnotation } from "../../oci/media-types.js";
import type { Uploader } from "../../oci/registry.js";
import { marshalSnapshotConfig } from "../../oci/snapshot-config.js";
import { transferError } from "../errors.js";
import { splitRelativeReference } from "../repository-name.js";
import { digestOf, putBlobIfMissing } from "./blob-upload.js";
import { ByteReader, type EntryBody } from "../io/byte-reader.js";
import { ENVELOPE_NAME, MAX_ENVELOPE_SIZE, parseEnvelope } from "../codec/envelope.js";
import { ExportFormatError } from "../export/export-format-error.js";
import { ExportNames } from "./export-names.js";
import { PendingEntries } from "./pending-entries.js";
import { type Collected, drain, uploadEntry } from "./push-entry.js";
import { chunksInFlight } from "../io/memory-budget.js";
import { UploadPool } from "../io/upload-pool.js";
import {
  checkPushOptions,
  DEFAULT_BUDGET_MIB,
  type PipelineParams,
  pipelineParams,
  type PushOptions,
  type PushResult,
} from "./push-options.js";
import { sparseFileMeta } from "../codec/sparse-meta.js";
import { readTar, type TarEntry } from "../codec/tar-reader.js";
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
  const names = new ExportNames();
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
      const kind = names.classify(entry);
      if (kind === "envelope") {
        if (entry.size > MAX_ENVELOPE_SIZE) {
          throw new ExportFormatError(ENVELOPE_NAME, "size", `${ENVELOPE_NAME} of ${entry.size} bytes, more than ${MAX_ENVELOPE_SIZE}`);
        }
        out.cfg = await parseEnvelope(Buffer.concat(await drain(body, "read tar entry")));
        for (const held of pending.drain()) await uploadEntry(up, opts, held.entry, held.body, params, pool, out);
      } else if (kind === "file" && out.cfg === undefined) {
        sparseFileMeta(entry);
        await pending.add(
          entry,
          body,
          (err) => new CocoonError("ERR_SNAPSHOT_FORMAT", `upload ${entry.name}: buffer entry: ${messageOf(err)}`, { cause: err }),
        );
      } else if (kind === "file") {
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
 * Links, directories, devices and FIFOs are skipped, as Go skips them; a contiguous file (`7`) is
 * a regular file.
 *
 * The export is checked against its format as it is read (`SnapshotEnvelopeSchema` of `./snapshot/export`,
 * {@link parseSparseRecords}): `snapshot.json` before anything is uploaded (files that precede it
 * are held in memory until it arrives), every other entry before any byte of it is uploaded. An
 * entry that is not a single file name, a repeated name, a GNU sparse file, another type that
 * carries data, a PAX or long-name block above 1 MiB, a malformed sparse record, a missing or
 * malformed `snapshot.json` are refused with an {@link ExportFormatError} naming the entry and the
 * field; a push that fails writes no manifest.
 *
 * @throws CocoonError with Go's message: `ERR_INVALID_ARGUMENT` for bad options,
 * `ERR_SNAPSHOT_FORMAT` for a malformed export ({@link ExportFormatError} when an entry breaks the
 * format), `ERR_SNAPSHOT_TRANSFER` for a failed registry call; the signal's reason when aborted.
 * `ERR_INVALID_REFERENCE`, before any request, for a name or tag `./oci`'s reference parser refuses
 * (a `.` or `..` path component among them).
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
  const tag = opts.tag || SnapshotTag.Default;
  splitRelativeReference("snapshot push: reference", `${opts.name}:${tag}`);
  const v2 = (opts.zstdLevel ?? 0) > 0 || (opts.chunkSizeMiB ?? 0) > 0;
  const collected = await readEntries(stream, up, opts, v2 ? pipelineParams(opts) : undefined);
  if (collected.cfg === undefined) throw new ExportFormatError(ENVELOPE_NAME, "", `${ENVELOPE_NAME} not found in export stream`);
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
