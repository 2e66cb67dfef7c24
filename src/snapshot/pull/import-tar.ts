import type { OCIManifest } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { ENVELOPE_NAME, marshalEnvelope } from "../codec/envelope.js";
import { layerHeader } from "../codec/tar-header.js";
import type { TarWriter } from "../codec/tar-writer.js";
import { verifiedBlob } from "./blob-reader.js";
import { type EncodedPull, writeEncodedFile } from "./encoded-layers.js";
import { type EncodedFile, type ImportEntry, importEntries } from "./import-entries.js";
import { prefetchWindow } from "./prefetch-window.js";
import { PULL_DEFAULTS, type StreamOptions } from "./stream-options.js";

const encoder = new TextEncoder();

/**
 * The pull's last step (Go's `StreamParsed` after its checks): writes the `cocoon snapshot import`
 * tar, `snapshot.json` first, then each entry ({@link importEntries}): its header, then its bytes,
 * passed through as stored or (v2) rebuilt once from its chunks or zstd frames.
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
  const entries = importEntries(m, cfg);
  const budget = (opts.memoryBudgetMiB && opts.memoryBudgetMiB > 0 ? opts.memoryBudgetMiB : PULL_DEFAULTS.memoryBudgetMiB) * 2 ** 20;
  const prefetch = opts.concurrency && opts.concurrency > 0 ? opts.concurrency : PULL_DEFAULTS.concurrency;
  const window = prefetchWindow(entries.filter(isEncodedFile), prefetch, budget);
  const pull: EncodedPull = { dl, opts, tw };
  for (const entry of entries) {
    const chunks = isEncodedFile(entry) ? `, ${entry.chunks.length} chunks` : "";
    opts.progress?.(`  ${entry.title} (${entry.size} bytes${chunks})`);
    await tw.writeHeader(layerHeader(entry.title, entry.size, entry.meta, mtime));
    if (isEncodedFile(entry)) {
      await writeEncodedFile(pull, entry, window);
      continue;
    }
    const blob = verifiedBlob(dl, opts.name, entry.layer, opts.signal);
    for await (const chunk of blob) {
      await tw.write(chunk);
      // Written, as every earlier piece: the slab it ends goes back once the output has taken it.
      if (blob.endsSlab(chunk)) tw.onTaken(() => blob.free(chunk));
    }
  }
  await tw.close();
}

const isEncodedFile = (entry: ImportEntry): entry is EncodedFile => !("layer" in entry);
