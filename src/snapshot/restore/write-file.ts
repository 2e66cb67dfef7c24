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

/** A piece at least this long is written as it arrived; shorter ones are gathered into the buffer first. */
const DIRECT = 256 * 1024;

/**
 * Creates `plan.name` in `dir` (`O_EXCL`, `O_NOFOLLOW`: never an existing file, never through a
 * link), writes the entry's body into its data extents, each byte where it lies (pieces as they
 * arrive when large, gathered into `buffer` when small), sets the size (holes are never written:
 * the file is extended over them) and the permission bits. `aborted` is checked between pieces.
 */
export async function writeRestoredFile(
  dir: string,
  plan: FilePlan,
  body: EntryBody,
  buffer: Uint8Array,
  aborted: () => void,
): Promise<void> {
  const { name, dataExtents } = plan;
  const fh: FileHandle = await fs(name, "create", () => open(join(dir, name), CREATE, 0o600));
  const writeAt = (bytes: Uint8Array, position: number): Promise<void> =>
    fs(name, "write", async () => {
      for (let at = 0; at < bytes.length;) at += (await fh.write(bytes, at, bytes.length - at, position + at)).bytesWritten;
    });
  let gathered = 0;
  let gatheredAt = 0;
  const flush = async (): Promise<void> => {
    if (gathered > 0) await writeAt(buffer.subarray(0, gathered), gatheredAt);
    gathered = 0;
  };
  try {
    let extent = 0;
    let into = 0;
    for await (const piece of body) {
      aborted();
      for (let at = 0; at < piece.length;) {
        while ((dataExtents[extent]?.length ?? 1) === 0) extent++;
        const e = dataExtents[extent] as SparseExtent; // the extents sum to the body's length
        const part = piece.subarray(at, at + Math.min(piece.length - at, e.length - into));
        const position = e.offset + into;
        if (part.length >= DIRECT) {
          await flush();
          await writeAt(part, position);
        } else {
          if (gathered > 0 && (gatheredAt + gathered !== position || gathered + part.length > buffer.length)) await flush();
          if (gathered === 0) gatheredAt = position;
          buffer.set(part, gathered);
          gathered += part.length;
        }
        at += part.length;
        into += part.length;
        if (into === e.length) [extent, into] = [extent + 1, 0];
      }
    }
    await flush();
    await fs(name, "truncate", () => fh.truncate(plan.size));
    await fs(name, "chmod", () => fh.chmod(plan.mode));
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
  await fs(name, "close", () => fh.close());
}
