import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { controlPlaneCacheDir, registryCacheDir } from "./cache-dir.js";
import { ensureControlPlaneBinaries } from "./control-plane-binaries.js";
import { findOnPath } from "./find-on-path.js";
import { ensureRegistryBinary } from "./registry-binary.js";

/** The process environment with every PATH folder that holds a `go` removed, and no binary overrides. */
function envWithoutGo(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, COCOON_CONTROLPLANE_DOWNLOAD_URL: "off" };
  for (const name of ["TEST_ASSET_ETCD", "TEST_ASSET_KUBE_APISERVER", "KUBEBUILDER_ASSETS", "TEST_ASSET_REGISTRY"]) delete env[name];
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !existsSync(join(dir, "go")))
    .join(delimiter);
  return env;
}

const cached = existsSync(join(controlPlaneCacheDir(), "kube-apiserver")) && existsSync(join(registryCacheDir(), "registry"));

// What `npm run demo` and the integration tests resolve before they start anything: with the
// binaries cached, none of it needs Go.
describe.skipIf(!cached)("binary resolution with go stripped from PATH", () => {
  it("has no go on the stripped PATH (so the checks below prove something)", async () => {
    expect(await findOnPath("go", process.env)).toBeDefined();
    expect(await findOnPath("go", envWithoutGo())).toBeUndefined();
  });

  it("finds etcd and kube-apiserver in the cache", async () => {
    const lines: string[] = [];
    await expect(ensureControlPlaneBinaries({ env: envWithoutGo(), log: (l) => lines.push(l) })).resolves.toEqual({
      etcd: join(controlPlaneCacheDir(), "etcd"),
      kubeApiserver: join(controlPlaneCacheDir(), "kube-apiserver"),
      source: "cache",
    });
    expect(lines).toEqual([]);
  });

  it("finds the registry in the cache", async () => {
    await expect(ensureRegistryBinary({ env: envWithoutGo(), log: () => {} })).resolves.toEqual({
      registry: join(registryCacheDir(), "registry"),
      source: "cache",
    });
  });

  it("runs `npm run controlplane:setup` (the demo's and CI's first step) to success", () => {
    const root = resolve(import.meta.dirname, "../../..");
    const env = envWithoutGo();
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/controlplane/setup.ts"], { cwd: root, env, encoding: "utf8" });
    expect(result.stderr).toMatch(/^\[controlplane\] binaries from cache \(\d+\.\ds\)\n$/);
    expect(result.stdout).toBe(
      `TEST_ASSET_ETCD=${join(controlPlaneCacheDir(), "etcd")}\nTEST_ASSET_KUBE_APISERVER=${join(controlPlaneCacheDir(), "kube-apiserver")}\n`,
    );
    expect(result.status).toBe(0);
  });
});
