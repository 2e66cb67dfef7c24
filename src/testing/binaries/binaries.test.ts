import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { ensureControllerManagerBinary, ensureControlPlaneBinaries, ensureRegistryBinary, ensureSchedulerBinary } from "./binaries.js";
import { acquireBuildLock } from "./cache.js";
import { BinaryDownloadError } from "./download.js";
import { CACHED, CACHED_REGISTRY, packEnvtestArchive, packRegistryArchive, startMirror, type Mirror } from "./mirror.fixture.js";
import { envtestArchive, registryArchive } from "./versions.js";

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
    await expect(ensureControlPlaneBinaries({ env, log: noLog })).rejects.toThrow(
      /plain-file \(from TEST_ASSET_ETCD\) is not an executable file/,
    );
  });

  it("fails before taking the lock and before announcing a build when downloads are off and there is no go", async () => {
    const lines: string[] = [];
    const cacheDir = join(dir, "nogo", "v1.35.4");
    await mkdir(join(dir, "nogo"));
    const release = await acquireBuildLock(`${cacheDir}.lock`); // another builder holds the lock
    const started = Date.now();
    const err = await ensureControlPlaneBinaries({
      env: { PATH: join(dir, "empty-path"), COCOON_CONTROLPLANE_DOWNLOAD_URL: "off" },
      cacheDir,
      log: (l) => lines.push(l),
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000); // the lock poll is 1 s: it never waited
    await release();
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe(
      "cannot get etcd and kube-apiserver v1.35.4: downloads are off (COCOON_CONTROLPLANE_DOWNLOAD_URL=off), and `go` is not " +
        "on PATH to build them. Install Go >= 1.25, point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, " +
        "or point TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries.",
    );
    expect(lines).toEqual([]);
    expect(await readdir(join(dir, "nogo"))).toEqual([]);
  });

  it("downloads or builds the release COCOON_KUBERNETES_VERSION names, into its own cache folder", async () => {
    const bin = join(dir, "fake-go-bin"); // a `go` that reports a version and then fails, to stop the build early
    await mkdir(bin, { recursive: true });
    await writeFile(
      join(bin, "go"),
      '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.26.8 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n',
    );
    await chmod(join(bin, "go"), 0o755);
    const root = join(dir, "by-version");
    const lines: string[] = [];
    const env = { PATH: bin, COCOON_CONTROLPLANE_DOWNLOAD_URL: "off", COCOON_CONTROLPLANE_CACHE: root, COCOON_KUBERNETES_VERSION: "1.37" };
    const err = await ensureControlPlaneBinaries({ env, log: (l) => lines.push(l) }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      '"go mod download -json k8s.io/kubernetes@v1.37.2" failed with exit status 1:\nno module proxy here',
    );
    expect(lines[0]).toBe(`building etcd and kube-apiserver v1.37.2 into ${join(root, "v1.37.2")}`);
    const explicit = await ensureControlPlaneBinaries({ env, kubernetesVersion: "v1.36.3", log: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).not.toBe((explicit as Error).message);
    expect((explicit as Error).message).toContain("k8s.io/kubernetes@v1.36.3");
    expect(await readdir(root)).toEqual([]);
  });
});

const ENVTEST_ARCHIVE = envtestArchive("", "v1.35.4")!.name;
const ENVTEST_PATH = `/envtest-v1.35.4/${ENVTEST_ARCHIVE}`;

describe("ensureControlPlaneBinaries with a download mirror", () => {
  let dir: string;
  let mirror: Mirror;
  let sha512: string;
  let root: string;
  let lines: string[];
  const noGo = (): NodeJS.ProcessEnv => ({ PATH: join(dir, "empty-path") });
  const log = (line: string): void => void lines.push(line);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-cp-download-"));
    const packed = await packEnvtestArchive(dir, ENVTEST_ARCHIVE, {
      etcd: join(CACHED, "etcd"),
      "kube-apiserver": join(CACHED, "kube-apiserver"),
    });
    sha512 = packed.sha512;
    mirror = await startMirror();
    mirror.routes.set(ENVTEST_PATH, { file: packed.path });
  }, 120_000);
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    root = await mkdtemp(join(dir, "cache-"));
    lines = [];
    mirror.routes.set(`${ENVTEST_PATH}.sha512`, { text: sha512 });
  });

  it("downloads into the cache without go, then finds it there", async () => {
    const cacheDir = join(root, "v1.35.4");
    const first = await ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(first).toEqual({ etcd: join(cacheDir, "etcd"), kubeApiserver: join(cacheDir, "kube-apiserver"), source: "download" });
    expect(await readdir(root)).toEqual(["v1.35.4"]); // no lock, no tmp folder left
    expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver"]);
    expect(lines[0]).toBe(`downloading ${ENVTEST_ARCHIVE} from ${mirror.base}${ENVTEST_PATH}`);
    expect(lines.at(-1)).toMatch(/^etcd and kube-apiserver v1\.35\.4 ready in \d+\.\ds$/);
    const second = await ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(second.source).toBe("cache");
  });

  it("downloads once when two callers start together; the other waits on the lock and finds the cache", async () => {
    const cacheDir = join(root, "v1.35.4");
    mirror.requests.length = 0;
    const both = await Promise.all([1, 2].map(() => ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })));
    expect(both.map((b) => b.source).sort()).toEqual(["cache", "download"]);
    expect(mirror.requests).toEqual([`${ENVTEST_PATH}.sha512`, ENVTEST_PATH]);
    expect(lines).toContain(`waiting for process ${process.pid}, which is downloading or building etcd and kube-apiserver v1.35.4`);
  });

  it("refills etcd and kube-apiserver beside a kube-scheduler added earlier, which stays as it was", async () => {
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await writeFile(join(cacheDir, "kube-scheduler"), "#!/bin/sh\necho Kubernetes v1.35.4\n", { mode: 0o755 });
    await writeFile(join(cacheDir, "kube-apiserver"), "#!/bin/sh\nexit 1\n", { mode: 0o755 }); // unusable: refilled
    await expect(ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({
      source: "download",
    });
    expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver", "kube-scheduler"]);
    expect(await readFile(join(cacheDir, "kube-scheduler"), "utf8")).toBe("#!/bin/sh\necho Kubernetes v1.35.4\n");
    expect(await readdir(root)).toEqual(["v1.35.4"]);
  });

  it("takes the mirror from COCOON_CONTROLPLANE_DOWNLOAD_URL", async () => {
    const cacheDir = join(root, "v1.35.4");
    const env = { ...noGo(), COCOON_CONTROLPLANE_DOWNLOAD_URL: `${mirror.base}/` };
    await expect(ensureControlPlaneBinaries({ env, cacheDir, log })).resolves.toMatchObject({ source: "download" });
  });

  it("without go, a bad checksum is one error naming the download as its cause, and the cache stays empty", async () => {
    mirror.routes.set(`${ENVTEST_PATH}.sha512`, { text: "cd".repeat(64) });
    const err = await ensureControlPlaneBinaries({ env: noGo(), cacheDir: join(root, "v1.35.4"), downloadUrl: mirror.base, log }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    const cause = (err as Error).cause;
    expect(cause).toBeInstanceOf(BinaryDownloadError);
    expect((cause as BinaryDownloadError).failure).toBe("checksum");
    expect((err as Error).message).toBe(
      `cannot get etcd and kube-apiserver v1.35.4: the download failed (${(cause as Error).message}), and \`go\` is not on PATH to build them. ` +
        "Install Go >= 1.25, point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, or point TEST_ASSET_ETCD and " +
        "TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries.",
    );
    expect(await readdir(root)).toEqual([]);
  });

  it("falls back to the go build when the mirror has no archive", async () => {
    mirror.routes.delete(`${ENVTEST_PATH}.sha512`);
    const bin = join(dir, "fake-go-bin"); // a `go` that reports a version and then fails, to stop the build early
    await mkdir(bin, { recursive: true });
    await writeFile(
      join(bin, "go"),
      '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.25.0 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n',
    );
    await chmod(join(bin, "go"), 0o755);
    const err = await ensureControlPlaneBinaries({
      env: { PATH: bin },
      cacheDir: join(root, "v1.35.4"),
      downloadUrl: mirror.base,
      log,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      '"go mod download -json k8s.io/kubernetes@v1.35.4" failed with exit status 1:\nno module proxy here',
    );
    expect(lines.slice(0, 3)).toEqual([
      `downloading ${ENVTEST_ARCHIVE} from ${mirror.base}${ENVTEST_PATH}`,
      `GET ${mirror.base}${ENVTEST_PATH}.sha512: HTTP 404 Not Found; building with go instead`,
      `building etcd and kube-apiserver v1.35.4 into ${join(root, "v1.35.4")}`,
    ]);
    expect(await readdir(root)).toEqual([]);
  });
});

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

const REGISTRY_ARCHIVE = registryArchive("", "v3.1.2", "linux")!.name;
const REGISTRY_PATH = `/v3.1.2/${REGISTRY_ARCHIVE}`;

describe.runIf(process.platform === "linux")("ensureRegistryBinary with a download mirror", () => {
  let dir: string;
  let mirror: Mirror;
  let sha256: string;
  let root: string;
  let lines: string[];
  const noGo = (): NodeJS.ProcessEnv => ({ PATH: join(dir, "empty-path") });
  const log = (line: string): void => void lines.push(line);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-registry-mirror-"));
    const packed = await packRegistryArchive(dir, REGISTRY_ARCHIVE, CACHED_REGISTRY);
    sha256 = packed.sha256;
    mirror = await startMirror();
    mirror.routes.set(REGISTRY_PATH, { file: packed.path });
  }, 60_000);
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    root = await mkdtemp(join(dir, "cache-"));
    lines = [];
    mirror.requests.length = 0;
    mirror.routes.set(`${REGISTRY_PATH}.sha256`, { text: `${sha256}\n` });
  });

  it("downloads into the cache without go, then finds it there", async () => {
    const cacheDir = join(root, "v3.1.2");
    const first = await ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(first).toEqual({ registry: join(cacheDir, "registry"), source: "download" });
    expect(await readdir(root)).toEqual(["v3.1.2"]); // no lock, no tmp folder left
    expect(await readdir(cacheDir)).toEqual(["registry"]);
    expect(lines[0]).toBe(`downloading ${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH}`);
    expect(lines.at(-1)).toMatch(/^the distribution registry v3\.1\.2 ready in \d+\.\ds$/);
    expect(lines).toHaveLength(3);
    const second = await ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(second.source).toBe("cache");
    expect(mirror.requests).toEqual([`${REGISTRY_PATH}.sha256`, REGISTRY_PATH]);
  });

  it("downloads once when two callers start together; the other waits on the lock and finds the cache", async () => {
    const cacheDir = join(root, "v3.1.2");
    const both = await Promise.all([1, 2].map(() => ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })));
    expect(both.map((b) => b.source).sort()).toEqual(["cache", "download"]);
    expect(mirror.requests).toEqual([`${REGISTRY_PATH}.sha256`, REGISTRY_PATH]);
    expect(lines).toContain(`waiting for process ${process.pid}, which is downloading or building the distribution registry v3.1.2`);
  });

  it("takes the mirror from COCOON_REGISTRY_DOWNLOAD_URL, and TEST_ASSET_REGISTRY before it", async () => {
    const cacheDir = join(root, "v3.1.2");
    const env = { ...noGo(), COCOON_REGISTRY_DOWNLOAD_URL: `${mirror.base}/` };
    await expect(ensureRegistryBinary({ env, cacheDir, log })).resolves.toEqual({
      registry: join(cacheDir, "registry"),
      source: "download",
    });
    const given = { ...env, TEST_ASSET_REGISTRY: CACHED_REGISTRY };
    await expect(ensureRegistryBinary({ env: given, cacheDir: join(root, "unused"), log })).resolves.toEqual({
      registry: CACHED_REGISTRY,
      source: "env",
    });
    expect(mirror.requests).toEqual([`${REGISTRY_PATH}.sha256`, REGISTRY_PATH]);
  });

  it("without go, a bad checksum is one error naming the download as its cause, and the cache stays empty", async () => {
    mirror.routes.set(`${REGISTRY_PATH}.sha256`, { text: "cd".repeat(32) });
    const err = await ensureRegistryBinary({ env: noGo(), cacheDir: join(root, "v3.1.2"), downloadUrl: mirror.base, log }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    const cause = (err as Error).cause;
    expect(cause).toBeInstanceOf(BinaryDownloadError);
    expect((cause as BinaryDownloadError).failure).toBe("checksum");
    expect((err as Error).message).toBe(
      `cannot get the distribution registry v3.1.2: the download failed (${(cause as Error).message}), and \`go\` is not on PATH ` +
        "to build it. Install Go >= 1.25, point COCOON_REGISTRY_DOWNLOAD_URL at a mirror of the distribution release archives, or " +
        "point TEST_ASSET_REGISTRY at an existing distribution registry v3.1.2 binary.",
    );
    expect(await readdir(root)).toEqual([]);
  });

  it("falls back to the go build when the mirror has no archive", async () => {
    mirror.routes.delete(`${REGISTRY_PATH}.sha256`);
    const bin = join(dir, "fake-go-bin"); // a `go` that reports a version and then fails, to stop the build early
    await mkdir(bin, { recursive: true });
    await writeFile(
      join(bin, "go"),
      '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.25.0 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n',
    );
    await chmod(join(bin, "go"), 0o755);
    const cacheDir = join(root, "v3.1.2");
    const err = await ensureRegistryBinary({ env: { PATH: bin }, cacheDir, downloadUrl: mirror.base, log }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    expect((err as Error).message).toBe('"go mod tidy" failed with exit status 1:\nno module proxy here');
    expect(lines.slice(0, 3)).toEqual([
      `downloading ${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH}`,
      `GET ${mirror.base}${REGISTRY_PATH}.sha256: HTTP 404 Not Found; building with go instead`,
      `building the distribution registry v3.1.2 into ${cacheDir}`,
    ]);
    expect(await readdir(root)).toEqual([]);
  });
});

/** A stand-in kube-scheduler: it only answers `--version`, which is all the resolution runs. */
const fakeScheduler = (version: string): string => `#!/bin/sh\necho "Kubernetes ${version}"\n`;
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const SCHEDULER_PATH = "/v1.35.4/bin/linux/amd64/kube-scheduler";

describe.runIf(process.platform === "linux" && process.arch === "x64")("ensureSchedulerBinary", () => {
  let dir: string;
  let mirror: Mirror;
  let root: string;
  let lines: string[];
  const noGo = (): NodeJS.ProcessEnv => ({ PATH: join(dir, "empty-path") });
  const log = (line: string): void => void lines.push(line);
  const executable = async (path: string, text: string): Promise<string> => {
    await writeFile(path, text);
    await chmod(path, 0o755);
    return path;
  };
  const failure = (promise: Promise<unknown>): Promise<Error> =>
    promise.then(
      () => expect.fail("ensureSchedulerBinary succeeded"),
      (err: unknown) => err as Error,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-scheduler-binary-"));
    await writeFile(join(dir, "kube-scheduler-v1.35.4"), fakeScheduler("v1.35.4"));
    mirror = await startMirror();
  });
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    root = await mkdtemp(join(dir, "case-"));
    lines = [];
    mirror.routes.clear();
    mirror.requests.length = 0;
    mirror.routes
      .set(SCHEDULER_PATH, { file: join(dir, "kube-scheduler-v1.35.4") })
      .set(`${SCHEDULER_PATH}.sha256`, { text: `${sha256(fakeScheduler("v1.35.4"))}\n` });
  });

  it("takes TEST_ASSET_KUBE_SCHEDULER first, then $KUBEBUILDER_ASSETS/kube-scheduler, as they are", async () => {
    const assets = join(root, "assets");
    await mkdir(assets);
    const inAssets = await executable(join(assets, "kube-scheduler"), fakeScheduler("v1.30.0"));
    const given = await executable(join(root, "given"), fakeScheduler("v1.29.0"));
    const cacheDir = join(root, "unused");
    await expect(
      ensureSchedulerBinary({ env: { TEST_ASSET_KUBE_SCHEDULER: given, KUBEBUILDER_ASSETS: assets }, cacheDir, log }),
    ).resolves.toEqual({ kubeScheduler: given, source: "env" });
    await expect(ensureSchedulerBinary({ env: { KUBEBUILDER_ASSETS: assets }, cacheDir, log })).resolves.toEqual({
      kubeScheduler: inAssets,
      source: "env",
    });
    expect([mirror.requests, lines]).toEqual([[], []]);
  });

  it("finds kube-controller-manager the same way, through TEST_ASSET_KUBE_CONTROLLER_MANAGER and the cache", async () => {
    const given = await executable(join(root, "given-kcm"), fakeScheduler("v1.29.0"));
    await expect(ensureControllerManagerBinary({ env: { TEST_ASSET_KUBE_CONTROLLER_MANAGER: given }, log })).resolves.toEqual({
      kubeControllerManager: given,
      source: "env",
    });
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "kube-controller-manager"), fakeScheduler("v1.35.4"));
    await expect(ensureControllerManagerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toEqual({
      kubeControllerManager: join(cacheDir, "kube-controller-manager"),
      source: "cache",
    });
    const err = await failure(ensureControllerManagerBinary({ env: noGo(), kubernetesVersion: "v1.30.0", log }));
    expect(err.message).toBe(
      "kube-controller-manager v1.30.0 cannot be fetched here: use one of v1.35.4, v1.36.3, v1.37.2, " +
        "or point TEST_ASSET_KUBE_CONTROLLER_MANAGER at an existing kube-controller-manager of the API server's release",
    );
    expect(mirror.requests).toEqual([]);
  });

  it("refuses a TEST_ASSET_KUBE_SCHEDULER that is not executable", async () => {
    await writeFile(join(root, "plain"), fakeScheduler("v1.35.4"));
    const err = await failure(ensureSchedulerBinary({ env: { TEST_ASSET_KUBE_SCHEDULER: join(root, "plain") }, log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(`${join(root, "plain")} (from TEST_ASSET_KUBE_SCHEDULER) is not an executable file`);
  });

  it("passes over a KUBEBUILDER_ASSETS without one (envtest's archives have none) and downloads into the cache", async () => {
    const assets = join(root, "assets");
    await mkdir(assets);
    const cacheDir = join(root, "v1.35.4");
    const env = { ...noGo(), KUBEBUILDER_ASSETS: assets };
    await expect(ensureSchedulerBinary({ env, cacheDir, downloadUrl: mirror.base, log })).resolves.toEqual({
      kubeScheduler: join(cacheDir, "kube-scheduler"),
      source: "download",
    });
    expect(mirror.requests).toEqual([`${SCHEDULER_PATH}.sha256`, SCHEDULER_PATH]);
    expect(lines[0]).toBe(`downloading kube-scheduler from ${mirror.base}${SCHEDULER_PATH}`);
    expect(lines[1]).toMatch(/^downloaded kube-scheduler \(0\.0 MiB, sha256 verified\) in \d+\.\ds$/);
    expect(lines.at(-1)).toMatch(/^kube-scheduler v1\.35\.4 ready in \d+\.\ds$/);
    expect((await stat(join(cacheDir, "kube-scheduler"))).mode & 0o777).toBe(0o755);
    await expect(ensureSchedulerBinary({ env, cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({ source: "cache" });
    expect(mirror.requests).toHaveLength(2);
  });

  it("adds kube-scheduler to a cache that holds only etcd and kube-apiserver, leaving them as they are", async () => {
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "etcd"), "#!/bin/sh\necho etcd\n");
    await executable(join(cacheDir, "kube-apiserver"), fakeScheduler("v1.35.4"));
    const before = await stat(join(cacheDir, "kube-apiserver"));
    const env = { ...noGo(), COCOON_COMPONENT_DOWNLOAD_URL: mirror.base };
    await expect(ensureSchedulerBinary({ env, cacheDir, log })).resolves.toMatchObject({ source: "download" });
    expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver", "kube-scheduler"]);
    expect(await readdir(root)).toEqual(["v1.35.4"]); // no lock, no tmp folder left
    const after = await stat(join(cacheDir, "kube-apiserver"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(join(cacheDir, "etcd"), "utf8")).toBe("#!/bin/sh\necho etcd\n");
  });

  it("replaces a cached kube-scheduler of another release", async () => {
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "kube-scheduler"), fakeScheduler("v1.35.3"));
    await expect(ensureSchedulerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({
      source: "download",
    });
    expect(await readFile(join(cacheDir, "kube-scheduler"), "utf8")).toBe(fakeScheduler("v1.35.4"));
  });

  it("refuses a binary that does not match its .sha256 and, without go, says so with the download as the cause", async () => {
    const wrong = "ab".repeat(32);
    mirror.routes.set(`${SCHEDULER_PATH}.sha256`, { text: wrong });
    const cacheDir = join(root, "v1.35.4");
    const err = await failure(ensureSchedulerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log }));
    const cause = err.cause as BinaryDownloadError;
    expect(cause).toBeInstanceOf(BinaryDownloadError);
    expect([cause.failure, cause.url, cause.message]).toEqual([
      "checksum",
      `${mirror.base}${SCHEDULER_PATH}`,
      `kube-scheduler from ${mirror.base}${SCHEDULER_PATH} has sha256 ${sha256(fakeScheduler("v1.35.4"))}, but ${mirror.base}${SCHEDULER_PATH}.sha256 says ${wrong}`,
    ]);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(
      `cannot get kube-scheduler v1.35.4: the download failed (${cause.message}), and \`go\` is not on PATH to build it. ` +
        "Install Go >= 1.25, point COCOON_COMPONENT_DOWNLOAD_URL at a mirror of the Kubernetes release binaries, or point " +
        "TEST_ASSET_KUBE_SCHEDULER at an existing kube-scheduler of the API server's release.",
    );
    expect(await readdir(root)).toEqual([]); // nothing kept: no binary, no tmp folder, no lock
  });

  it.each([
    ["a checksum file that holds no hash", { text: "<html>not found</html>" }, "checksum"],
    ["a missing checksum file", { status: 404 }, "not-found"],
    ["a server error", { status: 503 }, "status"],
  ] as const)("refuses %s", async (_name, route, why) => {
    mirror.routes.set(`${SCHEDULER_PATH}.sha256`, route);
    const err = await failure(ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.35.4"), downloadUrl: mirror.base, log }));
    expect((err.cause as BinaryDownloadError).failure).toBe(why);
    expect(mirror.requests).toEqual([`${SCHEDULER_PATH}.sha256`]); // the binary is never fetched without a checksum
    expect(await readdir(root)).toEqual([]);
  });

  it("refuses a download that does not run as the release asked for, and keeps nothing", async () => {
    mirror.routes.set("/v1.36.3/bin/linux/amd64/kube-scheduler", { file: join(dir, "kube-scheduler-v1.35.4") });
    mirror.routes.set("/v1.36.3/bin/linux/amd64/kube-scheduler.sha256", { text: sha256(fakeScheduler("v1.35.4")) });
    const wrongRelease = await failure(
      ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.36.3"), downloadUrl: mirror.base, kubernetesVersion: "v1.36.3", log }),
    );
    expect((wrongRelease.cause as Error).message).toBe(
      `kube-scheduler from ${mirror.base}/v1.36.3/bin/linux/amd64/kube-scheduler does not run as kube-scheduler v1.36.3`,
    );
    expect(await readdir(root)).toEqual([]);
  });

  it("falls back to the go build of kube-scheduler when the download fails", async () => {
    mirror.routes.delete(`${SCHEDULER_PATH}.sha256`);
    const bin = join(root, "fake-go-bin"); // a `go` that reports a version and then fails, to stop the build early
    await mkdir(bin);
    await executable(
      join(bin, "go"),
      '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.25.0 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n',
    );
    const cacheDir = join(root, "v1.35.4");
    const err = await failure(ensureSchedulerBinary({ env: { PATH: bin }, cacheDir, downloadUrl: mirror.base, log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toMatch(/^"go mod download -json k8s\.io\/kubernetes@v1\.35\.4" failed with exit status 1:\nno module proxy here/);
    expect(lines.slice(0, 4)).toEqual([
      `downloading kube-scheduler from ${mirror.base}${SCHEDULER_PATH}`,
      `GET ${mirror.base}${SCHEDULER_PATH}.sha256: HTTP 404 Not Found; building with go instead`,
      `building kube-scheduler v1.35.4 into ${cacheDir}`,
      "the build takes a few minutes on 2 cores, less when kube-apiserver was built first (they share Go's build cache)",
    ]);
  });

  it("with downloads off and no go, fails at once without taking the lock", async () => {
    const err = await failure(
      ensureSchedulerBinary({ env: { ...noGo(), COCOON_COMPONENT_DOWNLOAD_URL: "off" }, cacheDir: join(root, "v1.35.4"), log }),
    );
    expect(err.message).toMatch(
      /^cannot get kube-scheduler v1\.35\.4: downloads are off \(COCOON_COMPONENT_DOWNLOAD_URL=off\), and `go` is not on PATH/,
    );
    expect([await readdir(root), mirror.requests, lines]).toEqual([[], [], []]);
  });

  it("refuses a release it cannot fetch, naming TEST_ASSET_KUBE_SCHEDULER", async () => {
    const err = await failure(ensureSchedulerBinary({ env: noGo(), kubernetesVersion: "v1.30.0", log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(
      "kube-scheduler v1.30.0 cannot be fetched here: use one of v1.35.4, v1.36.3, v1.37.2, " +
        "or point TEST_ASSET_KUBE_SCHEDULER at an existing kube-scheduler of the API server's release",
    );
  });
});
