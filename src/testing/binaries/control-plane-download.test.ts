import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { ensureControlPlaneBinaries } from "./control-plane-binaries.js";
import { BinaryDownloadError } from "./download-error.js";
import { envtestArchive } from "./envtest-archive.js";
import { CACHED, packEnvtestArchive, startMirror, type Mirror } from "./envtest-mirror.fixture.js";

const ARCHIVE = envtestArchive("", process.platform, process.arch)!.name;
const PATH = `/envtest-v1.35.4/${ARCHIVE}`;

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
    const packed = await packEnvtestArchive(dir, ARCHIVE, { etcd: join(CACHED, "etcd"), "kube-apiserver": join(CACHED, "kube-apiserver") });
    sha512 = packed.sha512;
    mirror = await startMirror();
    mirror.routes.set(PATH, { file: packed.path });
  }, 120_000);
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    root = await mkdtemp(join(dir, "cache-"));
    lines = [];
    mirror.routes.set(`${PATH}.sha512`, { text: sha512 });
  });

  it("downloads into the cache without go, then finds it there", async () => {
    const cacheDir = join(root, "v1.35.4");
    const first = await ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(first).toEqual({ etcd: join(cacheDir, "etcd"), kubeApiserver: join(cacheDir, "kube-apiserver"), source: "download" });
    expect(await readdir(root)).toEqual(["v1.35.4"]); // no lock, no tmp folder left
    expect((await readdir(cacheDir)).sort()).toEqual(["etcd", "kube-apiserver"]);
    expect(lines[0]).toBe(`downloading ${ARCHIVE} from ${mirror.base}${PATH}`);
    expect(lines.at(-1)).toMatch(/^etcd and kube-apiserver v1\.35\.4 ready in \d+\.\ds$/);
    const second = await ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(second.source).toBe("cache");
  });

  it("downloads once when two callers start together; the other waits on the lock and finds the cache", async () => {
    const cacheDir = join(root, "v1.35.4");
    mirror.requests.length = 0;
    const both = await Promise.all([1, 2].map(() => ensureControlPlaneBinaries({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })));
    expect(both.map((b) => b.source).sort()).toEqual(["cache", "download"]);
    expect(mirror.requests).toEqual([`${PATH}.sha512`, PATH]);
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
    mirror.routes.set(`${PATH}.sha512`, { text: "cd".repeat(64) });
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
    mirror.routes.delete(`${PATH}.sha512`);
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
      `downloading ${ARCHIVE} from ${mirror.base}${PATH}`,
      `GET ${mirror.base}${PATH}.sha512: HTTP 404 Not Found; building with go instead`,
      `building etcd and kube-apiserver v1.35.4 into ${join(root, "v1.35.4")}`,
    ]);
    expect(await readdir(root)).toEqual([]);
  });
});
