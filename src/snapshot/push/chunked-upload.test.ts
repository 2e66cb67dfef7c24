import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { MemoryRegistry } from "../fakes.test-util.js";
import type { EntryBody } from "../io/byte-reader.js";
import type { ReadAt } from "../io/piece-source.js";
import { UploadPool } from "../io/upload-pool.js";
import { enqueueChunks } from "./chunked-upload.js";

const MiB = 1 << 20;

/** An export file's entry whose chunk reads are `reads[i]`, chunk by chunk. */
function entryOf(reads: readonly ReadAt[]): EntryBody {
  let next = 0;
  return { region: () => reads[next++] } as unknown as EntryBody;
}

const whole: ReadAt = (out) => Promise.resolve(out.length);

describe("enqueueChunks", () => {
  it("reports the earliest chunk whose read failed, even when a later read fails first (Go reads one after another)", async () => {
    const late: ReadAt = (out) => new Promise((resolve) => setTimeout(() => resolve(out.length - 10), 50));
    const early: ReadAt = () => Promise.resolve(0);
    const pool = new UploadPool(2);
    const registry = new MemoryRegistry();
    const file = {
      up: registry,
      repo: "vm",
      title: "memory-ranges",
      size: 5 * MiB,
      body: entryOf([whole, whole, whole, late, early]),
      level: 1,
      compress: true,
      progress: () => undefined,
    };
    await enqueueChunks(file, MiB, pool).catch(() => undefined);
    const failure = await pool.wait().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isCocoonError(failure, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((failure as Error).message).toBe("read memory-ranges chunk 3: unexpected EOF");
  });
});
