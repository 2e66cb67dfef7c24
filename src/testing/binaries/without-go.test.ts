import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { controlPlaneCacheDir, registryCacheDir } from "./cache.js";
import { ensureControlPlaneBinaries, ensureRegistryBinary, ensureSchedulerBinary } from "./binaries.js";
import { findOnPath } from "./command.js";
import { CACHED_REGISTRY, packRegistryArchive, startMirror } from "./mirror.fixture.js";
import { registryArchive } from "./versions.js";

/** The process environment with every PATH folder that holds a `go` removed, and no binary overrides. */
function envWithoutGo(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, COCOON_CONTROLPLANE_DOWNLOAD_URL: "off", COCOON_COMPONENT_DOWNLOAD_URL: "off" };
  for (const name of [
    "TEST_ASSET_ETCD",
    "TEST_ASSET_KUBE_APISERVER",
    "TEST_ASSET_KUBE_SCHEDULER",
    "TEST_ASSET_KUBE_CONTROLLER_MANAGER",
    "KUBEBUILDER_ASSETS",
    "TEST_ASSET_REGISTRY",
    "COCOON_REGISTRY_DOWNLOAD_URL",
  ]) {
    delete env[name];
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !existsSync(join(dir, "go")))
    .join(delimiter);
  return env;
}

const cached =
  existsSync(join(controlPlaneCacheDir(), "kube-apiserver")) &&
  existsSync(join(controlPlaneCacheDir(), "kube-scheduler")) &&
  existsSync(join(controlPlaneCacheDir(), "kube-controller-manager")) &&
  existsSync(join(registryCacheDir(), "registry"));

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

  it("finds kube-scheduler beside them", async () => {
    const lines: string[] = [];
    await expect(ensureSchedulerBinary({ env: envWithoutGo(), log: (l) => lines.push(l) })).resolves.toEqual({
      kubeScheduler: join(controlPlaneCacheDir(), "kube-scheduler"),
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
    expect(result.stderr).toMatch(
      /^\[controlplane\] etcd and kube-apiserver from cache, kube-scheduler from cache, kube-controller-manager from cache \(\d+\.\ds\)\n$/,
    );
    expect(result.stdout.split("\n")).toEqual([
      `TEST_ASSET_ETCD=${join(controlPlaneCacheDir(), "etcd")}`,
      `TEST_ASSET_KUBE_APISERVER=${join(controlPlaneCacheDir(), "kube-apiserver")}`,
      `TEST_ASSET_KUBE_SCHEDULER=${join(controlPlaneCacheDir(), "kube-scheduler")}`,
      `TEST_ASSET_KUBE_CONTROLLER_MANAGER=${join(controlPlaneCacheDir(), "kube-controller-manager")}`,
      "",
    ]);
    expect(result.status).toBe(0);
  });

  it("leaves kube-scheduler and kube-controller-manager out with `--without-scheduler` (CI's other Kubernetes releases)", () => {
    const root = resolve(import.meta.dirname, "../../..");
    const args = ["--import", "tsx", "scripts/controlplane/setup.ts", "--without-scheduler"];
    const result = spawnSync(process.execPath, args, { cwd: root, env: envWithoutGo(), encoding: "utf8" });
    expect(result.stderr).toMatch(/^\[controlplane\] etcd and kube-apiserver from cache \(\d+\.\ds\)\n$/);
    expect(result.stdout).toBe(
      `TEST_ASSET_ETCD=${join(controlPlaneCacheDir(), "etcd")}\nTEST_ASSET_KUBE_APISERVER=${join(controlPlaneCacheDir(), "kube-apiserver")}\n`,
    );
    expect(result.status).toBe(0);
  });
});

// A package user's CI without Go: an empty registry cache and a mirror of the release archive are enough.
const STARTS_REGISTRY = `
const { startRegistry } = await import("./src/testing/index.ts");
const registry = await startRegistry();
const status = (await fetch(registry.url + "/v2/")).status;
await registry.stop();
process.stdout.write(JSON.stringify({ status }));
`;

describe.runIf(cached && process.platform === "linux")("startRegistry with go stripped from PATH and an empty cache", () => {
  it("downloads the registry from the mirror in COCOON_REGISTRY_DOWNLOAD_URL and runs it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cocoon-registry-no-go-"));
    const mirror = await startMirror();
    try {
      const archive = registryArchive(mirror.base)!;
      const packed = await packRegistryArchive(dir, archive.name, CACHED_REGISTRY);
      mirror.routes
        .set(`/v3.1.2/${archive.name}`, { file: packed.path })
        .set(`/v3.1.2/${archive.name}.sha256`, { text: `${packed.sha256}\n` });
      const cache = join(dir, "cache");
      const env = { ...envWithoutGo(), COCOON_REGISTRY_CACHE: cache, COCOON_REGISTRY_DOWNLOAD_URL: mirror.base };
      const root = resolve(import.meta.dirname, "../../..");
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", STARTS_REGISTRY], { cwd: root, env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((done) => child.on("close", done));
      expect(stderr.split("\n").slice(0, 2)).toEqual([
        `[registry] downloading ${archive.name} from ${mirror.base}/v3.1.2/${archive.name}`,
        expect.stringMatching(/^\[registry\] downloaded registry_3\.1\.2_linux_\w+\.tar\.gz \(\d+\.\d MiB, sha256 verified\) in \d+\.\ds$/),
      ]);
      expect([code, stdout]).toEqual([0, JSON.stringify({ status: 200 })]);
      expect(await readdir(cache)).toEqual(["v3.1.2"]);
      expect(await readdir(join(cache, "v3.1.2"))).toEqual(["registry"]);
      expect(mirror.requests).toEqual([`/v3.1.2/${archive.name}.sha256`, `/v3.1.2/${archive.name}`]);
    } finally {
      await mirror.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
