import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { acquireBuildLock } from "./build-lock.js";
import { ensureRegistryBinary } from "./registry-binary.js";

describe("ensureRegistryBinary", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-registry-binary-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("refuses a TEST_ASSET_REGISTRY that is not executable", async () => {
    const err = await ensureRegistryBinary({ env: { TEST_ASSET_REGISTRY: join(dir, "none") }, log: () => {} }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    expect((err as Error).message).toBe(`${join(dir, "none")} (from TEST_ASSET_REGISTRY) is not an executable file`);
  });

  it("fails before taking the lock and before announcing a build when downloads are off and there is no go", async () => {
    const lines: string[] = [];
    await mkdir(join(dir, "cache"));
    const cacheDir = join(dir, "cache", "v3.1.2");
    const release = await acquireBuildLock(`${cacheDir}.lock`); // another builder holds the lock
    const started = Date.now();
    const env = { PATH: join(dir, "empty-path"), COCOON_REGISTRY_DOWNLOAD_URL: "off" };
    const err = await ensureRegistryBinary({ env, cacheDir, log: (l) => lines.push(l) }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000); // the lock poll is 1 s: it never waited
    await release();
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    expect((err as Error).message).toBe(
      "cannot get the distribution registry v3.1.2: downloads are off (COCOON_REGISTRY_DOWNLOAD_URL=off), and `go` is not on PATH " +
        "to build it. Install Go >= 1.25, point COCOON_REGISTRY_DOWNLOAD_URL at a mirror of the distribution release archives, or " +
        "point TEST_ASSET_REGISTRY at an existing distribution registry v3.1.2 binary.",
    );
    expect(lines).toEqual([]);
    expect(await readdir(join(dir, "cache"))).toEqual([]);
  });
});
