import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError, type CocoonErrorCode } from "../../errors.js";
import {
  ensureControllerManagerBinary,
  ensureControlPlaneBinaries,
  ensureRegistryBinary,
  ensureSchedulerBinary,
  type BinarySource,
  type EnsureControlPlaneBinariesOptions,
} from "./binaries.js";
import { acquireBuildLock } from "./cache.js";
import { BinaryDownloadError, type Release } from "./download.js";
import { CACHED, CACHED_REGISTRY, packEnvtestArchive, packRegistryArchive, startMirror, type Mirror } from "./mirror.fixture.js";
import { envtestArchive, kubernetesRelease, registryArchive } from "./versions.js";

/** A stand-in Kubernetes component: it only answers `--version`, which is all the resolution runs. */
const fakeKubernetes = (version: string): string => `#!/bin/sh\necho "Kubernetes ${version}"\n`;
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
/** A `go` that reports a version and then fails, to stop a build early. */
const FAILING_GO =
  '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.25.0 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n';
// With an empty base, each release's URL is its path on the mirror.
const ENVTEST = envtestArchive("", "v1.35.4");
const SCHEDULER = kubernetesRelease("", "v1.35.4", "kube-scheduler");
const REGISTRY = registryArchive("", "v3.1.2");

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
    () => expect.fail("it succeeded"),
    (err: unknown) => err as Error,
  );
/** Serves every release as published, with its checksum. */
const serveReleases = (files: { envtest: { path: string; sha512: string }; registry: { path: string; sha256: string } }): void => {
  mirror.routes.clear();
  mirror.requests.length = 0;
  if (ENVTEST) mirror.routes.set(ENVTEST.url, { file: files.envtest.path }).set(`${ENVTEST.url}.sha512`, { text: files.envtest.sha512 });
  if (REGISTRY)
    mirror.routes.set(REGISTRY.url, { file: files.registry.path }).set(`${REGISTRY.url}.sha256`, { text: `${files.registry.sha256}\n` });
  if (SCHEDULER) {
    mirror.routes
      .set(SCHEDULER.url, { file: join(dir, "kube-scheduler-v1.35.4") })
      .set(`${SCHEDULER.url}.sha256`, { text: `${sha256(fakeKubernetes("v1.35.4"))}\n` });
  }
};

let packed: Parameters<typeof serveReleases>[0];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cocoon-binaries-"));
  await writeFile(join(dir, "kube-scheduler-v1.35.4"), fakeKubernetes("v1.35.4"));
  packed = {
    envtest: await packEnvtestArchive(dir, "envtest.tar.gz", {
      etcd: join(CACHED, "etcd"),
      "kube-apiserver": join(CACHED, "kube-apiserver"),
    }),
    registry: await packRegistryArchive(dir, "registry.tar.gz", CACHED_REGISTRY),
  };
  mirror = await startMirror();
}, 120_000);
afterAll(async () => {
  await mirror.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  root = await mkdtemp(join(dir, "case-"));
  lines = [];
  serveReleases(packed);
});

/** One row per component: how to ask for it, and what it says. */
interface Case {
  what: string;
  ensure(options: EnsureControlPlaneBinariesOptions): Promise<unknown>;
  result(dir: string, source: BinarySource): unknown;
  release: Release | undefined;
  folder: string;
  files: string[];
  code: CocoonErrorCode;
  variable: string;
  them: string;
  remedy: string;
  buildFails: string;
}

const CASES: Case[] = [
  {
    what: "etcd and kube-apiserver v1.35.4",
    ensure: ensureControlPlaneBinaries,
    result: (d, source) => ({ etcd: join(d, "etcd"), kubeApiserver: join(d, "kube-apiserver"), source }),
    release: ENVTEST,
    folder: "v1.35.4",
    files: ["etcd", "kube-apiserver"],
    code: "ERR_CONTROL_PLANE",
    variable: "COCOON_CONTROLPLANE_DOWNLOAD_URL",
    them: "them",
    remedy:
      "point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, or point TEST_ASSET_ETCD and " +
      "TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries",
    buildFails: '"go mod download -json k8s.io/kubernetes@v1.35.4" failed with exit status 1:\nno module proxy here',
  },
  {
    what: "kube-scheduler v1.35.4",
    ensure: ensureSchedulerBinary,
    result: (d, source) => ({ kubeScheduler: join(d, "kube-scheduler"), source }),
    release: SCHEDULER,
    folder: "v1.35.4",
    files: ["kube-scheduler"],
    code: "ERR_CONTROL_PLANE",
    variable: "COCOON_COMPONENT_DOWNLOAD_URL",
    them: "it",
    remedy:
      "point COCOON_COMPONENT_DOWNLOAD_URL at a mirror of the Kubernetes release binaries, or point TEST_ASSET_KUBE_SCHEDULER " +
      "at an existing kube-scheduler of the API server's release",
    buildFails: '"go mod download -json k8s.io/kubernetes@v1.35.4" failed with exit status 1:\nno module proxy here',
  },
  {
    what: "the distribution registry v3.1.2",
    ensure: ensureRegistryBinary,
    result: (d, source) => ({ registry: join(d, "registry"), source }),
    release: REGISTRY,
    folder: "v3.1.2",
    files: ["registry"],
    code: "ERR_TEST_REGISTRY",
    variable: "COCOON_REGISTRY_DOWNLOAD_URL",
    them: "it",
    remedy:
      "point COCOON_REGISTRY_DOWNLOAD_URL at a mirror of the distribution release archives, or point TEST_ASSET_REGISTRY at " +
      "an existing distribution registry v3.1.2 binary",
    buildFails: '"go mod tidy" failed with exit status 1:\nno module proxy here',
  },
];

describe.each(CASES.filter((c) => c.release !== undefined))("$what", (c) => {
  const { url, digest, name } = c.release!;
  const checksum = `${url}.${digest}`;

  it("downloads into the cache without go, checked against its checksum, then finds it there", async () => {
    const cacheDir = join(root, c.folder);
    await expect(c.ensure({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toEqual(c.result(cacheDir, "download"));
    expect(await readdir(root)).toEqual([c.folder]); // no lock, no tmp folder left
    expect((await readdir(cacheDir)).sort()).toEqual(c.files);
    for (const file of c.files) expect((await stat(join(cacheDir, file))).mode & 0o777).toBe(0o755);
    expect(lines).toEqual([
      `downloading ${name} from ${mirror.base}${url}`,
      expect.stringMatching(
        new RegExp(`^downloaded ${name.replaceAll(".", "\\.")} \\(\\d+\\.\\d MiB, ${digest} verified\\) in \\d+\\.\\ds$`),
      ),
      expect.stringMatching(new RegExp(`^${c.what.replaceAll(".", "\\.")} ready in \\d+\\.\\ds$`)),
    ]);
    await expect(c.ensure({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toEqual(c.result(cacheDir, "cache"));
    expect(mirror.requests).toEqual([checksum, url]);
  });

  it("downloads once when two callers start together; the other waits on the lock and finds the cache", async () => {
    const cacheDir = join(root, c.folder);
    const both = await Promise.all([1, 2].map(() => c.ensure({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })));
    expect(both.map((b) => (b as { source: string }).source).sort()).toEqual(["cache", "download"]);
    expect(mirror.requests).toEqual([checksum, url]);
    expect(lines).toContain(`waiting for process ${process.pid}, which is downloading or building ${c.what}`);
  });

  it(`takes the mirror from ${c.variable}`, async () => {
    const cacheDir = join(root, c.folder);
    const env = { ...noGo(), [c.variable]: `${mirror.base}/` };
    await expect(c.ensure({ env, cacheDir, log })).resolves.toEqual(c.result(cacheDir, "download"));
  });

  it("without go, a bad checksum is one error naming the download as its cause, and the cache stays empty", async () => {
    mirror.routes.set(checksum, { text: "cd".repeat(digest === "sha256" ? 32 : 64) });
    const err = await failure(c.ensure({ env: noGo(), cacheDir: join(root, c.folder), downloadUrl: mirror.base, log }));
    const cause = err.cause as BinaryDownloadError;
    expect(cause).toBeInstanceOf(BinaryDownloadError);
    expect([cause.failure, cause.url]).toEqual(["checksum", `${mirror.base}${url}`]);
    expect(isCocoonError(err, c.code)).toBe(true);
    expect(err.message).toBe(
      `cannot get ${c.what}: the download failed (${cause.message}), and \`go\` is not on PATH to build ${c.them}. ` +
        `Install Go >= 1.25, ${c.remedy}.`,
    );
    expect(await readdir(root)).toEqual([]); // nothing kept: no binary, no tmp folder, no lock
  });

  it("falls back to the go build when the mirror has no checksum", async () => {
    mirror.routes.delete(checksum);
    const bin = join(root, "fake-go-bin");
    await mkdir(bin);
    await executable(join(bin, "go"), FAILING_GO);
    const cacheDir = join(root, c.folder);
    const err = await failure(c.ensure({ env: { PATH: bin }, cacheDir, downloadUrl: mirror.base, log }));
    expect(isCocoonError(err, c.code)).toBe(true);
    expect(err.message).toBe(c.buildFails);
    expect(lines.slice(0, 3)).toEqual([
      `downloading ${name} from ${mirror.base}${url}`,
      `GET ${mirror.base}${checksum}: HTTP 404 Not Found; building with go instead`,
      `building ${c.what} into ${cacheDir}`,
    ]);
    expect(await readdir(root)).toEqual(["fake-go-bin"]);
  });

  it("with downloads off and no go, fails at once: before taking the lock, announcing or fetching anything", async () => {
    const cacheDir = join(root, c.folder);
    const release = await acquireBuildLock(`${cacheDir}.lock`); // another process holds the lock
    const started = Date.now();
    const err = await failure(c.ensure({ env: { ...noGo(), [c.variable]: "off" }, cacheDir, log }));
    expect(Date.now() - started).toBeLessThan(1000); // the lock poll is 1 s: it never waited
    await release();
    expect(isCocoonError(err, c.code)).toBe(true);
    expect(err.message).toBe(
      `cannot get ${c.what}: downloads are off (${c.variable}=off), and \`go\` is not on PATH to build ${c.them}. ` +
        `Install Go >= 1.25, ${c.remedy}.`,
    );
    expect([await readdir(root), mirror.requests, lines]).toEqual([[], [], []]);
  });
});

describe("ensureControlPlaneBinaries", () => {
  let assets: string;
  beforeAll(async () => {
    assets = join(dir, "assets");
    await mkdir(assets);
    for (const name of ["etcd", "kube-apiserver"]) await executable(join(assets, name), "#!/bin/sh\n");
    await writeFile(join(dir, "plain-file"), "");
  });

  it("uses TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER first, then $KUBEBUILDER_ASSETS/{etcd,kube-apiserver}", async () => {
    const given = { etcd: join(assets, "etcd"), kubeApiserver: join(assets, "kube-apiserver"), source: "env" };
    const env = { TEST_ASSET_ETCD: given.etcd, TEST_ASSET_KUBE_APISERVER: given.kubeApiserver, KUBEBUILDER_ASSETS: join(dir, "elsewhere") };
    await expect(ensureControlPlaneBinaries({ env, log })).resolves.toEqual(given);
    await expect(ensureControlPlaneBinaries({ env: { KUBEBUILDER_ASSETS: assets }, log })).resolves.toEqual(given);
  });

  it.each([
    [
      "only one variable",
      () => ({ TEST_ASSET_ETCD: "/x/etcd" }),
      "set both TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS), or neither to build them",
    ],
    [
      "a missing file",
      () => ({ KUBEBUILDER_ASSETS: "/nonexistent" }),
      "/nonexistent/etcd (from KUBEBUILDER_ASSETS) is not an executable file",
    ],
    [
      "a file that is not executable",
      () => ({ TEST_ASSET_ETCD: join(dir, "plain-file"), TEST_ASSET_KUBE_APISERVER: join(assets, "kube-apiserver") }),
      "<dir>/plain-file (from TEST_ASSET_ETCD) is not an executable file",
    ],
  ])("refuses %s", async (_name, env, message) => {
    const err = await failure(ensureControlPlaneBinaries({ env: env(), log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(message.replace("<dir>", dir));
  });

  it("downloads or builds the release COCOON_KUBERNETES_VERSION names, into its own cache folder", async () => {
    const bin = join(root, "fake-go-bin");
    await mkdir(bin);
    await executable(join(bin, "go"), FAILING_GO);
    const cache = join(root, "by-version");
    const env = { PATH: bin, COCOON_CONTROLPLANE_DOWNLOAD_URL: "off", COCOON_CONTROLPLANE_CACHE: cache, COCOON_KUBERNETES_VERSION: "1.37" };
    const err = await failure(ensureControlPlaneBinaries({ env, log }));
    expect(err.message).toBe('"go mod download -json k8s.io/kubernetes@v1.37.2" failed with exit status 1:\nno module proxy here');
    expect(lines[0]).toBe(`building etcd and kube-apiserver v1.37.2 into ${join(cache, "v1.37.2")}`);
    const explicit = await failure(ensureControlPlaneBinaries({ env, kubernetesVersion: "v1.36.3", log }));
    expect(explicit.message).toBe('"go mod download -json k8s.io/kubernetes@v1.36.3" failed with exit status 1:\nno module proxy here');
    expect(await readdir(cache)).toEqual([]);
  });

  it.each([
    [
      "etcd and kube-apiserver",
      ensureControlPlaneBinaries,
      "TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries",
    ],
    ["kube-scheduler", ensureSchedulerBinary, "TEST_ASSET_KUBE_SCHEDULER at an existing kube-scheduler of the API server's release"],
    [
      "kube-controller-manager",
      ensureControllerManagerBinary,
      "TEST_ASSET_KUBE_CONTROLLER_MANAGER at an existing kube-controller-manager of the API server's release",
    ],
  ] as const)("refuses %s of a release it cannot fetch", async (what, ensure, given) => {
    const err = await failure(ensure({ env: noGo(), kubernetesVersion: "v1.30.0", log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(`${what} v1.30.0 cannot be fetched here: use one of v1.35.4, v1.36.3, v1.37.2, or point ${given}`);
    expect(mirror.requests).toEqual([]);
  });

  it.runIf(ENVTEST !== undefined)(
    "refills etcd and kube-apiserver beside a kube-scheduler added earlier, which stays as it was",
    async () => {
      const cacheDir = join(root, "v1.35.4");
      await mkdir(cacheDir);
      await executable(join(cacheDir, "kube-scheduler"), fakeKubernetes("v1.35.4"));
      await executable(join(cacheDir, "kube-apiserver"), "#!/bin/sh\nexit 1\n"); // unusable: refilled
      await expect(ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({
        source: "download",
      });
      expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver", "kube-scheduler"]);
      expect(await readFile(join(cacheDir, "kube-scheduler"), "utf8")).toBe(fakeKubernetes("v1.35.4"));
      expect(await readdir(root)).toEqual(["v1.35.4"]);
    },
  );
});

describe("ensureRegistryBinary", () => {
  it("takes TEST_ASSET_REGISTRY before anything else, and refuses one that is not executable", async () => {
    await expect(
      ensureRegistryBinary({ env: { ...noGo(), TEST_ASSET_REGISTRY: CACHED_REGISTRY }, downloadUrl: mirror.base, log }),
    ).resolves.toEqual({
      registry: CACHED_REGISTRY,
      source: "env",
    });
    const err = await failure(ensureRegistryBinary({ env: { TEST_ASSET_REGISTRY: join(root, "none") }, log }));
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    expect(err.message).toBe(`${join(root, "none")} (from TEST_ASSET_REGISTRY) is not an executable file`);
    expect([mirror.requests, lines]).toEqual([[], []]);
  });
});

describe.runIf(SCHEDULER !== undefined)("ensureSchedulerBinary and ensureControllerManagerBinary", () => {
  const url = SCHEDULER?.url ?? "";

  it("take TEST_ASSET_KUBE_SCHEDULER first, then $KUBEBUILDER_ASSETS/kube-scheduler, as they are", async () => {
    const assets = join(root, "assets");
    await mkdir(assets);
    const inAssets = await executable(join(assets, "kube-scheduler"), fakeKubernetes("v1.30.0"));
    const given = await executable(join(root, "given"), fakeKubernetes("v1.29.0"));
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

  it("find kube-controller-manager the same way, through TEST_ASSET_KUBE_CONTROLLER_MANAGER and the cache", async () => {
    const given = await executable(join(root, "given-kcm"), fakeKubernetes("v1.29.0"));
    await expect(ensureControllerManagerBinary({ env: { TEST_ASSET_KUBE_CONTROLLER_MANAGER: given }, log })).resolves.toEqual({
      kubeControllerManager: given,
      source: "env",
    });
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "kube-controller-manager"), fakeKubernetes("v1.35.4"));
    await expect(ensureControllerManagerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toEqual({
      kubeControllerManager: join(cacheDir, "kube-controller-manager"),
      source: "cache",
    });
    expect(mirror.requests).toEqual([]);
  });

  it("refuse a TEST_ASSET_KUBE_SCHEDULER that is not executable", async () => {
    await writeFile(join(root, "plain"), fakeKubernetes("v1.35.4"));
    const err = await failure(ensureSchedulerBinary({ env: { TEST_ASSET_KUBE_SCHEDULER: join(root, "plain") }, log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(`${join(root, "plain")} (from TEST_ASSET_KUBE_SCHEDULER) is not an executable file`);
  });

  it("pass over a KUBEBUILDER_ASSETS without one (envtest's archives have none) and download into the cache", async () => {
    const assets = join(root, "assets");
    await mkdir(assets);
    const cacheDir = join(root, "v1.35.4");
    await expect(
      ensureSchedulerBinary({ env: { ...noGo(), KUBEBUILDER_ASSETS: assets }, cacheDir, downloadUrl: mirror.base, log }),
    ).resolves.toEqual({
      kubeScheduler: join(cacheDir, "kube-scheduler"),
      source: "download",
    });
  });

  it("add kube-scheduler to a cache that holds only etcd and kube-apiserver, leaving them as they are", async () => {
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "etcd"), "#!/bin/sh\necho etcd\n");
    await executable(join(cacheDir, "kube-apiserver"), fakeKubernetes("v1.35.4"));
    const before = await stat(join(cacheDir, "kube-apiserver"));
    await expect(ensureSchedulerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({
      source: "download",
    });
    expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver", "kube-scheduler"]);
    const after = await stat(join(cacheDir, "kube-apiserver"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(join(cacheDir, "etcd"), "utf8")).toBe("#!/bin/sh\necho etcd\n");
  });

  it("replace a cached kube-scheduler of another release", async () => {
    const cacheDir = join(root, "v1.35.4");
    await mkdir(cacheDir);
    await executable(join(cacheDir, "kube-scheduler"), fakeKubernetes("v1.35.3"));
    await expect(ensureSchedulerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })).resolves.toMatchObject({
      source: "download",
    });
    expect(await readFile(join(cacheDir, "kube-scheduler"), "utf8")).toBe(fakeKubernetes("v1.35.4"));
  });

  it.each([
    ["a checksum file that holds no hash", { text: "<html>not found</html>" }, "checksum"],
    ["a missing checksum file", { status: 404 }, "not-found"],
    ["a server error", { status: 503 }, "status"],
  ] as const)("refuse %s, and never fetch the binary", async (_name, route, why) => {
    mirror.routes.set(`${url}.sha256`, route);
    const err = await failure(ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.35.4"), downloadUrl: mirror.base, log }));
    expect((err.cause as BinaryDownloadError).failure).toBe(why);
    expect(mirror.requests).toEqual([`${url}.sha256`]);
    expect(await readdir(root)).toEqual([]);
  });

  it("refuse a download that does not run as the release asked for, and keep nothing", async () => {
    const other = kubernetesRelease("", "v1.36.3", "kube-scheduler")?.url ?? "";
    mirror.routes
      .set(other, { file: join(dir, "kube-scheduler-v1.35.4") })
      .set(`${other}.sha256`, { text: sha256(fakeKubernetes("v1.35.4")) });
    const err = await failure(
      ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.36.3"), downloadUrl: mirror.base, kubernetesVersion: "v1.36.3", log }),
    );
    expect((err.cause as Error).message).toBe(`kube-scheduler from ${mirror.base}${other} does not run as kube-scheduler v1.36.3`);
    expect(await readdir(root)).toEqual([]);
  });
});
