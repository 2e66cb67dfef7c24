import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BinaryDownloadError } from "./download-error.js";
import { envtestArchive, type EnvtestArchive } from "./envtest-archive.js";
import { downloadEnvtestBinaries, parseSha512 } from "./envtest-download.js";
import { CACHED, packEnvtestArchive, startMirror, type Mirror } from "./envtest-mirror.fixture.js";
import { runCommand } from "./run-command.js";

const ARCHIVE = "envtest-v1.35.4-linux-amd64.tar.gz";
const PATH = `/envtest-v1.35.4/${ARCHIVE}`;

describe("downloadEnvtestBinaries", () => {
  let dir: string;
  let mirror: Mirror;
  let good: { path: string; sha512: string };
  let archive: EnvtestArchive;
  let out: string;
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const failure = (promise: Promise<unknown>): Promise<BinaryDownloadError> =>
    promise.then(
      () => expect.fail("the download succeeded"),
      (err: unknown) => (expect(err).toBeInstanceOf(BinaryDownloadError), err as BinaryDownloadError),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-envtest-download-"));
    good = await packEnvtestArchive(dir, ARCHIVE, { etcd: join(CACHED, "etcd"), "kube-apiserver": join(CACHED, "kube-apiserver") });
    mirror = await startMirror();
    archive = envtestArchive(mirror.base, "linux", "x64")!;
  }, 120_000);
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    out = await mkdtemp(join(dir, "out-"));
    lines.length = 0;
    mirror.routes.clear();
    mirror.requests.length = 0;
  });

  it("fetches the archive and its .sha512 in setup-envtest's layout, and unpacks etcd and kube-apiserver", async () => {
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha512`, { text: good.sha512 });
    await downloadEnvtestBinaries(archive, out, { log });
    expect(mirror.requests).toEqual([`${PATH}.sha512`, PATH]);
    expect((await readdir(out)).sort()).toEqual(["etcd", "kube-apiserver"]); // no archive, no tree, no .part left
    for (const name of ["etcd", "kube-apiserver"]) {
      expect((await stat(join(out, name))).size).toBe((await stat(join(CACHED, name))).size);
      expect((await stat(join(out, name))).mode & 0o777).toBe(0o755);
    }
    expect((await runCommand(join(out, "kube-apiserver"), ["--version"])).stdout).toBe("Kubernetes v1.35.4\n");
    expect(lines[0]).toBe(`downloading ${ARCHIVE} from ${mirror.base}${PATH}`);
    expect(lines[1]).toMatch(
      new RegExp(`^downloaded ${ARCHIVE.replaceAll(".", "\\.")} \\(\\d+\\.\\d MiB, sha512 verified\\) in \\d+\\.\\ds$`),
    );
  });

  it("refuses an archive that does not match its checksum, and keeps nothing", async () => {
    const wrong = "ab".repeat(64);
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha512`, { text: `${wrong}  /${ARCHIVE}\n` });
    const err = await failure(downloadEnvtestBinaries(archive, out, { log }));
    const actual = good.sha512.split(" ")[0];
    expect(err.code).toBe("ERR_BINARY_DOWNLOAD");
    expect(err.failure).toBe("checksum");
    expect(err.url).toBe(`${mirror.base}${PATH}`);
    expect(err.message).toBe(`${ARCHIVE} from ${mirror.base}${PATH} has sha512 ${actual}, but ${mirror.base}${PATH}.sha512 says ${wrong}`);
    expect(await readdir(out)).toEqual([]);
  });

  it.each([
    ["the archive", PATH],
    ["its checksum", `${PATH}.sha512`],
  ])("reports a 404 of %s with the URL", async (_what, missing) => {
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha512`, { text: good.sha512 });
    mirror.routes.delete(missing);
    const err = await failure(downloadEnvtestBinaries(archive, out, { log }));
    expect(err.failure).toBe("not-found");
    expect(err.message).toBe(`GET ${mirror.base}${missing}: HTTP 404 Not Found`);
    expect(await readdir(out)).toEqual([]);
  });

  it("reports another status as such", async () => {
    mirror.routes.set(`${PATH}.sha512`, { status: 503 });
    const err = await failure(downloadEnvtestBinaries(archive, out, { log }));
    expect([err.failure, err.message]).toEqual(["status", `GET ${mirror.base}${PATH}.sha512: HTTP 503 Service Unavailable`]);
  });

  it("gives up on a server that stops sending, past the idle timeout, and removes the partial file", async () => {
    mirror.routes.set(PATH, { stallAfter: "\x1f\x8b partial" }).set(`${PATH}.sha512`, { text: good.sha512 });
    const started = Date.now();
    const err = await failure(downloadEnvtestBinaries(archive, out, { log, idleTimeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect([err.failure, err.message]).toEqual(["timeout", `GET ${mirror.base}${PATH}: no data for 300 ms, gave up`]);
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(3000);
    expect(await readdir(out)).toEqual([]);
  });

  it("names an archive that lacks kube-apiserver", async () => {
    const partial = await packEnvtestArchive(dir, "etcd-only.tar.gz", { etcd: join(CACHED, "etcd") });
    mirror.routes.set(PATH, { file: partial.path }).set(`${PATH}.sha512`, { text: partial.sha512 });
    const err = await failure(downloadEnvtestBinaries(archive, out, { log }));
    expect([err.failure, err.message]).toEqual(["archive", `${ARCHIVE} from ${mirror.base}${PATH} holds no kube-apiserver`]);
    expect(await readdir(out)).toEqual([]);
  });

  it("reports a server that cannot be reached", async () => {
    const closed = await startMirror();
    await closed.close();
    const err = await failure(downloadEnvtestBinaries(envtestArchive(closed.base, "linux", "x64")!, out, { log }));
    expect(err.failure).toBe("transport");
    expect(err.message).toBe(`GET ${closed.base}${PATH}.sha512: connect ECONNREFUSED ${closed.base.slice("http://".length)}`);
  });
});

describe("parseSha512", () => {
  const hash = "0f".repeat(64);
  it.each([
    ["a sha512sum line", `${hash}  /envtest.tar.gz\n`],
    ["a bare hash", hash],
    ["upper case", hash.toUpperCase()],
  ])("reads %s", (_name, text) => {
    expect(parseSha512(text, "u")).toBe(hash);
  });

  it("refuses a file that is no checksum, naming it", () => {
    expect(() => parseSha512("<html>Not here</html>", "http://m/x.sha512")).toThrow(
      'http://m/x.sha512 holds no sha512 checksum (expected 128 hex digits, got "<html>Not here</html>")',
    );
  });
});

describe("envtestArchive", () => {
  it.each([
    ["linux", "x64", "envtest-v1.35.4-linux-amd64.tar.gz"],
    ["darwin", "arm64", "envtest-v1.35.4-darwin-arm64.tar.gz"],
    ["win32", "x64", "envtest-v1.35.4-windows-amd64.tar.gz"],
    ["linux", "ppc64", "envtest-v1.35.4-linux-ppc64le.tar.gz"],
  ] as const)("%s/%s is %s", (platform, arch, name) => {
    expect(envtestArchive("https://mirror.example/envtest/", platform, arch)).toEqual({
      name,
      url: `https://mirror.example/envtest/envtest-v1.35.4/${name}`,
      sha512Url: `https://mirror.example/envtest/envtest-v1.35.4/${name}.sha512`,
    });
  });

  it("has nothing for a platform envtest does not publish", () => {
    expect(envtestArchive("https://m", "freebsd", "x64")).toBeUndefined();
    expect(envtestArchive("https://m", "linux", "ia32")).toBeUndefined();
  });
});
