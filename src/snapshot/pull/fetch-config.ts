import { createHash } from "node:crypto";
import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { MediaType } from "../../oci/media-types.js";
import type { Downloader } from "../../oci/registry.js";
import { parseSnapshotConfig, type SnapshotConfig } from "../../oci/snapshot-config.js";
import { formatError, transferError } from "../errors.js";

const MAX_CONFIG_SIZE = 64 << 20;

/**
 * Downloads and parses a snapshot config blob (Go's `FetchSnapshotConfig`); the bytes are
 * digest-checked, the descriptor size only capped at 64 MiB, like Go.
 */
export async function fetchSnapshotConfig(dl: Downloader, name: string, desc: Descriptor, signal?: AbortSignal): Promise<SnapshotConfig> {
  checkConfigDescriptor(desc, MAX_CONFIG_SIZE);
  const hash = createHash("sha256");
  const parts: Uint8Array[] = [];
  let length = 0;
  let body: AsyncIterable<Uint8Array>;
  try {
    body = await dl.getBlob(name, desc.digest, signal ? { signal } : {});
  } catch (err) {
    throw transferError(`get config blob ${desc.digest}`, err, signal);
  }
  try {
    for await (const chunk of body) {
      length += chunk.length;
      if (length > MAX_CONFIG_SIZE) {
        throw new CocoonError("ERR_SNAPSHOT_FORMAT", `config blob exceeded cap ${MAX_CONFIG_SIZE} while streaming`);
      }
      hash.update(chunk);
      parts.push(chunk);
    }
  } catch (err) {
    throw transferError("read config blob", err, signal);
  }
  const got = `sha256:${hash.digest("hex")}`;
  if (got !== desc.digest) {
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `blob ${desc.digest} digest mismatch: got ${got}`);
  }
  try {
    return parseSnapshotConfig(Buffer.concat(parts));
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `parse snapshot config: ${messageOf(err)}`, { cause: err });
  }
}

/** Refuses a config descriptor Go refuses. */
function checkConfigDescriptor(desc: Descriptor, cap: number): void {
  if (desc.mediaType !== MediaType.SnapshotConfig) {
    throw formatError(`unexpected config mediaType ${JSON.stringify(desc.mediaType)}`);
  }
  if (desc.size > cap) throw formatError(`config blob too large: ${desc.size} > ${cap}`);
}
