import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { acquireBuildLock, controlPlaneCacheDir, registryCacheDir } from "./cache.js";

describe("controlPlaneCacheDir", () => {
  it.each([
    ["HOME only", { HOME: "/home/me" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    ["XDG_CACHE_HOME wins over HOME", { HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "/xdg/cocoon-common/controlplane/v1.35.4"],
    ["empty XDG_CACHE_HOME is unset", { HOME: "/home/me", XDG_CACHE_HOME: "" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    [
      "COCOON_CONTROLPLANE_CACHE is the root",
      { HOME: "/h", XDG_CACHE_HOME: "/xdg", COCOON_CONTROLPLANE_CACHE: "/ci/cp" },
      "/ci/cp/v1.35.4",
    ],
    [
      "COCOON_KUBERNETES_VERSION picks the release's folder",
      { HOME: "/h", COCOON_KUBERNETES_VERSION: "1.37" },
      "/h/.cache/cocoon-common/controlplane/v1.37.2",
    ],
  ])("%s", (_name, env, expected) => {
    expect(controlPlaneCacheDir(env)).toBe(expected);
  });
});

describe("registryCacheDir", () => {
  it.each([
    ["HOME only", { HOME: "/home/me" }, "/home/me/.cache/cocoon-common/registry/v3.1.2"],
    ["XDG_CACHE_HOME wins over HOME", { HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "/xdg/cocoon-common/registry/v3.1.2"],
    ["COCOON_REGISTRY_CACHE is the root", { HOME: "/h", COCOON_REGISTRY_CACHE: "/ci/reg" }, "/ci/reg/v3.1.2"],
  ])("%s", (_name, env, expected) => {
    expect(registryCacheDir(env)).toBe(expected);
  });
});

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
