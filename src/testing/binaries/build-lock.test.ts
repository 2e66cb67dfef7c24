import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { acquireBuildLock } from "./build-lock.js";

describe("acquireBuildLock", () => {
  let dir: string;
  let lock: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-lock-test-"));
    lock = join(dir, "v1.lock");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes the owner's pid and removes the file on release", async () => {
    const release = await acquireBuildLock(lock);
    expect(await readFile(lock, "utf8")).toBe(String(process.pid));
    await release();
    await release();
    await expect(readFile(lock)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("makes a second taker wait until the first releases", async () => {
    const release = await acquireBuildLock(lock);
    const waits: number[] = [];
    let second = false;
    const pending = acquireBuildLock(lock, { pollMs: 10, onWait: (pid) => waits.push(pid) }).then((r) => ((second = true), r));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(second).toBe(false);
    expect(waits).toEqual([process.pid]);
    await release();
    await (
      await pending
    )();
    expect(second).toBe(true);
  });

  it("takes over a lock whose owner is gone", async () => {
    await writeFile(lock, "2147483646"); // no such pid
    const release = await acquireBuildLock(lock, { pollMs: 10 });
    expect(await readFile(lock, "utf8")).toBe(String(process.pid));
    await release();
  });

  it("gives up after timeoutMs with ERR_CONTROL_PLANE", async () => {
    const release = await acquireBuildLock(lock);
    const err = await acquireBuildLock(lock, { pollMs: 10, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toContain(`still held by pid ${process.pid}`);
    await release();
  });
});
