import { CocoonError } from "../errors.js";
import { classifyParsedManifest, type Descriptor, descriptorTitle, Kind, type OCIManifest, parseManifest } from "../oci/manifest-types.js";
import { ArtifactType } from "../oci/media-types.js";
import type { Downloader } from "../oci/registry.js";
import type { SnapshotConfig } from "../oci/snapshot-config.js";
import { messageOf, transferError, verifiedBlob } from "./blob-reader.js";
import { fetchSnapshotConfig } from "./fetch-config.js";
import { marshalEnvelope } from "./envelope.js";
import { pickIndexChild } from "./index-child.js";
import { layerHeader, validateSnapshotLayers } from "./pull-checks.js";
import { writeEncodedLayers } from "./pull-encoded.js";
import { PULL_DEFAULTS, type StreamOptions } from "./stream-options.js";
import { TarWriter } from "./tar-writer.js";

const encoder = new TextEncoder();

function required(opts: StreamOptions): void {
  if (!(opts as StreamOptions | undefined)?.name) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: name is required");
  if (typeof (opts.output as Partial<StreamOptions["output"]> | undefined)?.write !== "function")
    throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot stream: writer is required");
}

async function writeRawLayer(
  dl: Downloader,
  opts: StreamOptions,
  tw: TarWriter,
  layer: Descriptor,
  cfg: SnapshotConfig,
  mtime: number,
): Promise<void> {
  const title = descriptorTitle(layer);
  opts.progress?.(`  ${title} (${layer.size} bytes)`);
  await tw.writeHeader(layerHeader(title, layer.size, cfg.files?.[title] ?? {}, mtime));
  for await (const chunk of verifiedBlob(dl, opts.name, layer, opts.signal)) await tw.write(chunk);
}

async function writeImportTar(dl: Downloader, m: OCIManifest, cfg: SnapshotConfig, opts: StreamOptions): Promise<void> {
  const mtime = Math.round((opts.now ?? Date.now)() / 1000);
  const tw = new TarWriter(opts.output);
  const envelope = encoder.encode(marshalEnvelope(cfg, opts.localName || opts.name));
  await tw.writeHeader({ name: "snapshot.json", size: envelope.length, mode: 0o644, mtime });
  await tw.write(envelope);
  const layers = m.layers ?? [];
  if (m.artifactType === ArtifactType.SnapshotV2) {
    const budget = (opts.memoryBudgetMiB && opts.memoryBudgetMiB > 0 ? opts.memoryBudgetMiB : PULL_DEFAULTS.memoryBudgetMiB) * 2 ** 20;
    const prefetch = opts.concurrency && opts.concurrency > 0 ? opts.concurrency : PULL_DEFAULTS.concurrency;
    await writeEncodedLayers({
      dl,
      opts,
      tw,
      layers,
      cfg,
      mtime,
      budget,
      prefetch,
      writeRaw: (layer) => writeRawLayer(dl, opts, tw, layer, cfg, mtime),
    });
  } else {
    for (const layer of layers) await writeRawLayer(dl, opts, tw, layer, cfg, mtime);
  }
  await tw.close();
}

async function settle(opts: StreamOptions, run: () => Promise<void>): Promise<void> {
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

/**
 * Streams an already-parsed snapshot manifest as a `cocoon snapshot import` tar (Go's `StreamParsed`).
 *
 * @throws CocoonError with Go's message: `ERR_SNAPSHOT_FORMAT` for a malformed artifact,
 * `ERR_SNAPSHOT_INTEGRITY` for a blob that differs from its descriptor, `ERR_SNAPSHOT_TRANSFER`
 * for a failed registry call; the signal's reason when aborted. On failure `output` is destroyed.
 */
export async function streamSnapshotParsed(m: OCIManifest, dl: Downloader, opts: StreamOptions): Promise<void> {
  required(opts);
  await settle(opts, async () => {
    let cfg: SnapshotConfig;
    try {
      cfg = await fetchSnapshotConfig(dl, opts.name, m.config, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const e = err as CocoonError;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- err may be any error, not only a CocoonError
      throw new CocoonError(e.code ?? "ERR_SNAPSHOT_TRANSFER", `fetch snapshot config: ${messageOf(err)}`, { cause: err });
    }
    validateSnapshotLayers(m, cfg);
    await writeImportTar(dl, m, cfg, opts);
  });
}

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
    m = parseManifest(raw);
    if (classifyParsedManifest(m) === Kind.ImageIndex) {
      const child = pickIndexChild(m);
      let childRaw: Uint8Array;
      try {
        childRaw = (await dl.getManifest(opts.name, child.digest, opts.signal ? { signal: opts.signal } : {})).data;
      } catch (err) {
        throw transferError(`get child manifest ${child.digest}`, err, opts.signal);
      }
      m = parseManifest(childRaw);
    }
  } catch (err) {
    const prefixed = err instanceof CocoonError && err.code === "ERR_SNAPSHOT_FORMAT" && err.message.startsWith("parse oci");
    const failure = prefixed ? new CocoonError(err.code, `parse manifest: ${err.message}`, { cause: err }) : err;
    opts.output.destroy();
    throw failure;
  }
  const kind = classifyParsedManifest(m);
  if (kind !== Kind.Snapshot) {
    const err = new CocoonError("ERR_SNAPSHOT_FORMAT", `manifest is ${kind}, not a snapshot`);
    opts.output.destroy();
    throw err;
  }
  await streamSnapshotParsed(m, dl, opts);
}
