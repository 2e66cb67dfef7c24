import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { SparseExtent } from "../codec/sparse-map.js";
import type { EntryBody } from "../io/byte-reader.js";

/** One file a restore wrote. */
export interface RestoredFile {
  /** Its name in the directory (the tar entry's). */
  readonly name: string;
  /** Its permission bits (the entry's mode without setuid, setgid, sticky or type bits). */
  readonly mode: number;
  /** Its size: the sparse size of a sparse entry, else the entry's. */
  readonly size: number;
  /** Where its data lies, in order; the rest of the file is holes, never written. A dense file is one extent. */
  readonly dataExtents: readonly SparseExtent[];
}

/** What {@link writeRestoredFile} writes: the entry's name, permission bits, size and data extents. */
export type FilePlan = RestoredFile;

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Wraps a failure of the file system as `ERR_SNAPSHOT_OUTPUT` naming the file. */
function outputError(name: string, op: string, err: unknown): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_OUTPUT", `restore: ${op} ${JSON.stringify(name)}: ${messageOf(err)}`, { cause: err });
}

async function fs<T>(name: string, op: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw outputError(name, op, err);
  }
}

/**
 * Creates `plan.name` in `dir` (`O_EXCL`, `O_NOFOLLOW`: never an existing file, never through a
 * link), writes each data extent where it lies from the entry's body, in `buffer`-sized pieces,
 * sets the size (holes are never written: the file is extended over them) and the permission bits.
 * `aborted` is checked between pieces.
 */
export async function writeRestoredFile(
  dir: string,
  plan: FilePlan,
  body: EntryBody,
  buffer: Uint8Array,
  aborted: () => void,
): Promise<void> {
  const { name } = plan;
  const fh: FileHandle = await fs(name, "create", () => open(join(dir, name), CREATE, 0o600));
  try {
    for (const extent of plan.dataExtents) {
      for (let done = 0; done < extent.length;) {
        aborted();
        const piece = buffer.subarray(0, Math.min(buffer.length, extent.length - done));
        await body.readInto(piece);
        await fs(name, "write", async () => {
          for (let at = 0; at < piece.length;) {
            const { bytesWritten } = await fh.write(piece, at, piece.length - at, extent.offset + done + at);
            at += bytesWritten;
          }
        });
        done += piece.length;
      }
    }
    await fs(name, "truncate", () => fh.truncate(plan.size));
    await fs(name, "chmod", () => fh.chmod(plan.mode));
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
  await fs(name, "close", () => fh.close());
}
