import type { OCIManifest } from "../../oci/manifest-types.js";
import { ArtifactType } from "../../oci/media-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { ENVELOPE_NAME, marshalEnvelope } from "../codec/envelope.js";
import type { TarWriter } from "../codec/tar-writer.js";
import { writeEncodedLayers } from "./encoded-layers.js";
import { writeRawLayer } from "./raw-layer.js";
import { PULL_DEFAULTS, type StreamOptions } from "./stream-options.js";

const encoder = new TextEncoder();

/**
 * The pull's last step (Go's `StreamParsed` after its checks): writes the `cocoon snapshot import`
 * tar, `snapshot.json` first, then each layer's file: passed through as stored, or (v2) rebuilt
 * once from its chunks or zstd frames.
 */
export async function writeImportTar(
  dl: Downloader,
  m: OCIManifest,
  cfg: SnapshotConfig,
  opts: StreamOptions,
  tw: TarWriter,
): Promise<void> {
  const mtime = Math.round((opts.now ?? Date.now)() / 1000);
  const envelope = encoder.encode(marshalEnvelope(cfg, opts.localName || opts.name));
  await tw.writeHeader({ name: ENVELOPE_NAME, size: envelope.length, mode: 0o644, mtime });
  await tw.write(envelope);
  const layers = m.layers ?? [];
  if (m.artifactType === ArtifactType.SnapshotV2) {
    const budget = (opts.memoryBudgetMiB && opts.memoryBudgetMiB > 0 ? opts.memoryBudgetMiB : PULL_DEFAULTS.memoryBudgetMiB) * 2 ** 20;
    const prefetch = opts.concurrency && opts.concurrency > 0 ? opts.concurrency : PULL_DEFAULTS.concurrency;
    await writeEncodedLayers({ dl, opts, tw, cfg, mtime, layers, budget, prefetch });
  } else {
    for (const layer of layers) await writeRawLayer({ dl, opts, tw, cfg, mtime }, layer);
  }
  await tw.close();
}
