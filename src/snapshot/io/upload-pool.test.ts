import { describe, expect, it } from "vitest";
import { UploadPool } from "./upload-pool.js";

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("UploadPool", () => {
  it("starts the next task when one hands its slot over, with at most `limit` handed-over tasks running", async () => {
    const pool = new UploadPool(2);
    const started: number[] = [];
    const uploading: number[] = [];
    const compress = [deferred(), deferred(), deferred(), deferred(), deferred()];
    const upload = [deferred(), deferred(), deferred(), deferred(), deferred()];
    const starts = compress.map((_, i) =>
      pool.start(async (handOver) => {
        started.push(i);
        await compress[i]?.promise;
        await handOver();
        uploading.push(i);
        await upload[i]?.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    compress[0]?.resolve();
    compress[1]?.resolve();
    await tick();
    expect(uploading).toEqual([0, 1]);
    expect(started).toEqual([0, 1, 2, 3]); // both slots handed over
    compress[2]?.resolve();
    await tick();
    expect(uploading).toEqual([0, 1]); // two are uploading already: task 2 waits for one of them
    expect(started).toEqual([0, 1, 2, 3, 4]);
    upload[0]?.resolve();
    await tick();
    expect(uploading).toEqual([0, 1, 2]);
    for (const d of [...compress, ...upload]) d.resolve();
    await Promise.all(starts);
    await pool.wait();
    expect(uploading).toEqual([0, 1, 2, 3, 4]);
  });

  it("reports the first failure and starts nothing after it", async () => {
    const pool = new UploadPool(1);
    await pool.start(() => Promise.reject(new Error("first")));
    let ran = false;
    await pool.start(() => {
      ran = true;
      return Promise.resolve();
    });
    await expect(pool.wait()).rejects.toThrow("first");
    expect(ran).toBe(false);
    expect(pool.failed).toBe(true);
  });
});
