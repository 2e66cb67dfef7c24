import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { BinaryDownloadError } from "./download-error.js";
import { startMirror, type Mirror } from "./envtest-mirror.fixture.js";
import { ensureControllerManagerBinary } from "./controller-manager-binary.js";
import { ensureSchedulerBinary } from "./scheduler-binary.js";
import { SCHEDULER_DOWNLOAD_URL, schedulerDownloadBaseFrom, componentRelease } from "./component-release.js";

/** A stand-in kube-scheduler: it only answers `--version`, which is all the resolution runs. */
const fakeScheduler = (version: string): string => `#!/bin/sh\necho "Kubernetes ${version}"\n`;
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const PATH = "/v1.35.4/bin/linux/amd64/kube-scheduler";

describe("componentRelease", () => {
  it("names dl.k8s.io's layout for each Linux CPU, and nothing elsewhere", () => {
    expect(componentRelease(`${SCHEDULER_DOWNLOAD_URL}/`, "v1.36.3", "linux", "arm64")).toEqual({
      command: "kube-scheduler",
      url: "https://dl.k8s.io/release/v1.36.3/bin/linux/arm64/kube-scheduler",
      sha256Url: "https://dl.k8s.io/release/v1.36.3/bin/linux/arm64/kube-scheduler.sha256",
    });
    expect(componentRelease(SCHEDULER_DOWNLOAD_URL, "v1.35.4", "linux", "x64")?.url).toBe(
      "https://dl.k8s.io/release/v1.35.4/bin/linux/amd64/kube-scheduler",
    );
    expect([
      componentRelease(SCHEDULER_DOWNLOAD_URL, "v1.35.4", "darwin", "arm64"),
      componentRelease("", "v1.35.4", "linux", "ia32"),
    ]).toEqual([undefined, undefined]);
  });

  it("names kube-controller-manager beside kube-scheduler", () => {
    expect(componentRelease(SCHEDULER_DOWNLOAD_URL, "v1.35.4", "linux", "x64", "kube-controller-manager")).toEqual({
      command: "kube-controller-manager",
      url: "https://dl.k8s.io/release/v1.35.4/bin/linux/amd64/kube-controller-manager",
      sha256Url: "https://dl.k8s.io/release/v1.35.4/bin/linux/amd64/kube-controller-manager.sha256",
    });
  });

  it("takes the base from COCOON_SCHEDULER_DOWNLOAD_URL, `off` turning downloads off", () => {
    expect([
      schedulerDownloadBaseFrom({}),
      schedulerDownloadBaseFrom({ COCOON_SCHEDULER_DOWNLOAD_URL: " " }),
      schedulerDownloadBaseFrom({ COCOON_SCHEDULER_DOWNLOAD_URL: "http://mirror.test/k8s" }),
      schedulerDownloadBaseFrom({ COCOON_SCHEDULER_DOWNLOAD_URL: "off" }),
    ]).toEqual([SCHEDULER_DOWNLOAD_URL, SCHEDULER_DOWNLOAD_URL, "http://mirror.test/k8s", undefined]);
  });
});

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
      .set(PATH, { file: join(dir, "kube-scheduler-v1.35.4") })
      .set(`${PATH}.sha256`, { text: `${sha256(fakeScheduler("v1.35.4"))}\n` });
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
        "or point TEST_ASSET_KUBE_CONTROLLER_MANAGER at a kube-controller-manager of the API server's release",
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
    expect(mirror.requests).toEqual([`${PATH}.sha256`, PATH]);
    expect(lines[0]).toBe(`downloading kube-scheduler from ${mirror.base}${PATH}`);
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
    const env = { ...noGo(), COCOON_SCHEDULER_DOWNLOAD_URL: mirror.base };
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
    mirror.routes.set(`${PATH}.sha256`, { text: wrong });
    const cacheDir = join(root, "v1.35.4");
    const err = await failure(ensureSchedulerBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log }));
    const cause = err.cause as BinaryDownloadError;
    expect(cause).toBeInstanceOf(BinaryDownloadError);
    expect([cause.failure, cause.url, cause.message]).toEqual([
      "checksum",
      `${mirror.base}${PATH}`,
      `kube-scheduler from ${mirror.base}${PATH} has sha256 ${sha256(fakeScheduler("v1.35.4"))}, but ${mirror.base}${PATH}.sha256 says ${wrong}`,
    ]);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(
      `cannot get kube-scheduler v1.35.4: the download failed (${cause.message}), and \`go\` is not on PATH to build it. ` +
        "Install Go >= 1.25, point COCOON_SCHEDULER_DOWNLOAD_URL at a mirror of the Kubernetes release binaries, or point " +
        "TEST_ASSET_KUBE_SCHEDULER at an existing kube-scheduler of the API server's release.",
    );
    expect(await readdir(root)).toEqual([]); // nothing kept: no binary, no tmp folder, no lock
  });

  it.each([
    ["a checksum file that holds no hash", { text: "<html>not found</html>" }, "checksum"],
    ["a missing checksum file", { status: 404 }, "not-found"],
    ["a server error", { status: 503 }, "status"],
  ] as const)("refuses %s", async (_name, route, why) => {
    mirror.routes.set(`${PATH}.sha256`, route);
    const err = await failure(ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.35.4"), downloadUrl: mirror.base, log }));
    expect((err.cause as BinaryDownloadError).failure).toBe(why);
    expect(mirror.requests).toEqual([`${PATH}.sha256`]); // the binary is never fetched without a checksum
    expect(await readdir(root)).toEqual([]);
  });

  it("refuses a download that does not run as the release asked for, and keeps nothing", async () => {
    mirror.routes.set("/v1.36.3/bin/linux/amd64/kube-scheduler", { file: join(dir, "kube-scheduler-v1.35.4") });
    mirror.routes.set("/v1.36.3/bin/linux/amd64/kube-scheduler.sha256", { text: sha256(fakeScheduler("v1.35.4")) });
    const wrongRelease = await failure(
      ensureSchedulerBinary({ env: noGo(), cacheDir: join(root, "v1.36.3"), downloadUrl: mirror.base, kubernetesVersion: "v1.36.3", log }),
    );
    expect((wrongRelease.cause as Error).message).toBe(
      `the binary from ${mirror.base}/v1.36.3/bin/linux/amd64/kube-scheduler does not run as kube-scheduler v1.36.3`,
    );
    expect(await readdir(root)).toEqual([]);
  });

  it("falls back to the go build of kube-scheduler when the download fails", async () => {
    mirror.routes.delete(`${PATH}.sha256`);
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
      `downloading kube-scheduler from ${mirror.base}${PATH}`,
      `GET ${mirror.base}${PATH}.sha256: HTTP 404 Not Found; building with go instead`,
      `building kube-scheduler v1.35.4 into ${cacheDir}`,
      "the build takes a few minutes on 2 cores, less when kube-apiserver was built first (they share Go's build cache)",
    ]);
  });

  it("with downloads off and no go, fails at once without taking the lock", async () => {
    const err = await failure(
      ensureSchedulerBinary({ env: { ...noGo(), COCOON_SCHEDULER_DOWNLOAD_URL: "off" }, cacheDir: join(root, "v1.35.4"), log }),
    );
    expect(err.message).toMatch(
      /^cannot get kube-scheduler v1\.35\.4: downloads are off \(COCOON_SCHEDULER_DOWNLOAD_URL=off\), and `go` is not on PATH/,
    );
    expect([await readdir(root), mirror.requests, lines]).toEqual([[], [], []]);
  });

  it("refuses a release it cannot fetch, naming TEST_ASSET_KUBE_SCHEDULER", async () => {
    const err = await failure(ensureSchedulerBinary({ env: noGo(), kubernetesVersion: "v1.30.0", log }));
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect(err.message).toBe(
      "kube-scheduler v1.30.0 cannot be fetched here: use one of v1.35.4, v1.36.3, v1.37.2, " +
        "or point TEST_ASSET_KUBE_SCHEDULER at a kube-scheduler of the API server's release",
    );
  });
});
