import { type Descriptor, descriptorTitle } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { fileMeta } from "../artifact-checks.js";
import { layerHeader } from "../codec/tar-header.js";
import type { TarWriter } from "../codec/tar-writer.js";
import { verifiedBlob } from "./blob-reader.js";
import type { StreamOptions } from "./stream-options.js";

/** What writing one entry of the import tar needs from the pull. */
export interface ImportEntries {
  readonly dl: Downloader;
  readonly opts: StreamOptions;
  readonly tw: TarWriter;
  readonly cfg: SnapshotConfig;
  /** Modification time of every entry, in whole seconds. */
  readonly mtime: number;
}

/** Writes one layer as stored (every v1 layer; a v2 layer neither chunked nor compressed): its header, then its verified bytes. */
export async function writeRawLayer(pull: ImportEntries, layer: Descriptor): Promise<void> {
  const title = descriptorTitle(layer);
  pull.opts.progress?.(`  ${title} (${layer.size} bytes)`);
  await pull.tw.writeHeader(layerHeader(title, layer.size, fileMeta(pull.cfg, title), pull.mtime));
  const blob = verifiedBlob(pull.dl, pull.opts.name, layer, pull.opts.signal);
  for await (const chunk of blob) {
    await pull.tw.write(chunk);
    // Written, as every earlier piece: the slab it ends goes back once the output has taken it.
    if (blob.endsSlab(chunk)) pull.tw.onTaken(() => blob.free(chunk));
  }
}
