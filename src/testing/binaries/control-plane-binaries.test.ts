import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { ensureControlPlaneBinaries } from "./control-plane-binaries.js";

describe("ensureControlPlaneBinaries", () => {
  let dir: string;
  let assets: string;
  const noLog = (): void => {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-binaries-test-"));
    assets = join(dir, "assets");
    await mkdir(assets);
    for (const name of ["etcd", "kube-apiserver"]) {
      await writeFile(join(assets, name), "#!/bin/sh\n");
      await chmod(join(assets, name), 0o755);
    }
    await writeFile(join(dir, "plain-file"), "");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("uses TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER first", async () => {
    const env = {
      TEST_ASSET_ETCD: join(assets, "etcd"),
      TEST_ASSET_KUBE_APISERVER: join(assets, "kube-apiserver"),
      KUBEBUILDER_ASSETS: join(dir, "elsewhere"),
    };
    await expect(ensureControlPlaneBinaries({ env, log: noLog })).resolves.toEqual({
      etcd: join(assets, "etcd"),
      kubeApiserver: join(assets, "kube-apiserver"),
      source: "env",
    });
  });

  it("uses $KUBEBUILDER_ASSETS/{etcd,kube-apiserver} next", async () => {
    await expect(ensureControlPlaneBinaries({ env: { KUBEBUILDER_ASSETS: assets }, log: noLog })).resolves.toEqual({
      etcd: join(assets, "etcd"),
      kubeApiserver: join(assets, "kube-apiserver"),
      source: "env",
    });
  });

  it.each([
    ["only one variable", { TEST_ASSET_ETCD: "/x/etcd" }, "set both TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER"],
    ["a missing file", { KUBEBUILDER_ASSETS: "/nonexistent" }, "/nonexistent/etcd (from KUBEBUILDER_ASSETS) is not an executable file"],
  ])("refuses %s", async (_name, env, message) => {
    const err = await ensureControlPlaneBinaries({ env, log: noLog }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toContain(message);
  });

  it("refuses a file that is not executable", async () => {
    const env = { TEST_ASSET_ETCD: join(dir, "plain-file"), TEST_ASSET_KUBE_APISERVER: join(assets, "kube-apiserver") };
    await expect(ensureControlPlaneBinaries({ env, log: noLog })).rejects.toThrow(/plain-file \(from TEST_ASSET_ETCD\) is not an executable file/);
  });

  it("names the missing go when there is nothing to use and nothing to build with", async () => {
    const lines: string[] = [];
    const cacheDir = join(dir, "cache", "v1.35.4");
    await mkdir(`${cacheDir}.tmp-999999/src`, { recursive: true }); // left by a build that was killed
    const err = await ensureControlPlaneBinaries({ env: { PATH: join(dir, "empty-path") }, cacheDir, log: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toMatch(/^cannot build the test control plane: `go` is not on PATH\. Install Go >= 1\.25, or point TEST_ASSET_ETCD/);
    expect(lines[1]).toMatch(/first build takes several minutes/);
    // nothing half-built is left behind (not even the killed build's), and the lock is released
    expect(await readdir(join(dir, "cache"))).toEqual([]);
  });
});
