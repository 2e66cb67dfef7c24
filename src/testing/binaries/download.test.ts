import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCommand } from "./command.js";
import { BinaryDownloadError, downloadRelease, parseChecksum, type Release } from "./download.js";
import { CACHED, CACHED_REGISTRY, packEnvtestArchive, packRegistryArchive, startMirror, type Mirror } from "./mirror.fixture.js";
import { envtestArchive, REGISTRY_ARCHIVE_SHA256, registryArchive } from "./versions.js";

const ARCHIVE = "envtest-v1.35.4-linux-amd64.tar.gz";
const PATH = `/envtest-v1.35.4/${ARCHIVE}`;
const REGISTRY_ARCHIVE = "registry_3.1.2_linux_amd64.tar.gz";
const REGISTRY_PATH = `/v3.1.2/${REGISTRY_ARCHIVE}`;

describe("downloadRelease", () => {
  let dir: string;
  let mirror: Mirror;
  let good: { path: string; sha512: string };
  let registry: { path: string; sha256: string };
  let archive: Release;
  let registryRelease: Release;
  let out: string;
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const failure = (promise: Promise<unknown>): Promise<BinaryDownloadError> =>
    promise.then(
      () => expect.fail("the download succeeded"),
      (err: unknown) => (expect(err).toBeInstanceOf(BinaryDownloadError), err as BinaryDownloadError),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-download-"));
    good = await packEnvtestArchive(dir, ARCHIVE, { etcd: join(CACHED, "etcd"), "kube-apiserver": join(CACHED, "kube-apiserver") });
    registry = await packRegistryArchive(dir, REGISTRY_ARCHIVE, CACHED_REGISTRY);
    mirror = await startMirror();
    archive = envtestArchive(mirror.base, "v1.35.4", "linux", "x64")!;
    registryRelease = registryArchive(mirror.base, "v3.1.2", "linux", "x64")!;
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
    await downloadRelease(archive, out, { log });
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
    const err = await failure(downloadRelease(archive, out, { log }));
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
    const err = await failure(downloadRelease(archive, out, { log }));
    expect(err.failure).toBe("not-found");
    expect(err.message).toBe(`GET ${mirror.base}${missing}: HTTP 404 Not Found`);
    expect(await readdir(out)).toEqual([]);
  });

  it("reports another status as such", async () => {
    mirror.routes.set(`${PATH}.sha512`, { status: 503 });
    const err = await failure(downloadRelease(archive, out, { log }));
    expect([err.failure, err.message]).toEqual(["status", `GET ${mirror.base}${PATH}.sha512: HTTP 503 Service Unavailable`]);
  });

  it("gives up on a server that stops sending, past the idle timeout, and removes the partial file", async () => {
    mirror.routes.set(PATH, { stallAfter: "\x1f\x8b partial" }).set(`${PATH}.sha512`, { text: good.sha512 });
    const started = Date.now();
    const err = await failure(downloadRelease(archive, out, { log, idleTimeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect([err.failure, err.message]).toEqual(["timeout", `GET ${mirror.base}${PATH}: no data for 300 ms, gave up`]);
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(3000);
    expect(await readdir(out)).toEqual([]);
  });

  it("names an archive that lacks kube-apiserver", async () => {
    const partial = await packEnvtestArchive(dir, "etcd-only.tar.gz", { etcd: join(CACHED, "etcd") });
    mirror.routes.set(PATH, { file: partial.path }).set(`${PATH}.sha512`, { text: partial.sha512 });
    const err = await failure(downloadRelease(archive, out, { log }));
    expect([err.failure, err.message]).toEqual(["archive", `${ARCHIVE} from ${mirror.base}${PATH} holds no kube-apiserver`]);
    expect(await readdir(out)).toEqual([]);
  });

  it("reports a server that cannot be reached", async () => {
    const closed = await startMirror();
    await closed.close();
    const err = await failure(downloadRelease(envtestArchive(closed.base, "v1.35.4", "linux", "x64")!, out, { log }));
    expect(err.failure).toBe("transport");
    expect(err.message).toBe(`GET ${closed.base}${PATH}.sha512: connect ECONNREFUSED ${closed.base.slice("http://".length)}`);
  });

  it("fetches the archive and its .sha256 in the release's layout, and unpacks only registry", async () => {
    mirror.routes.set(REGISTRY_PATH, { file: registry.path }).set(`${REGISTRY_PATH}.sha256`, { text: `${registry.sha256}\n` });
    await downloadRelease(registryRelease, out, { log });
    expect(mirror.requests).toEqual([`${REGISTRY_PATH}.sha256`, REGISTRY_PATH]);
    expect(await readdir(out)).toEqual(["registry"]); // no README, LICENSE, archive, tree or .part left
    expect((await stat(join(out, "registry"))).size).toBe((await stat(CACHED_REGISTRY)).size);
    expect((await stat(join(out, "registry"))).mode & 0o777).toBe(0o755);
    expect((await runCommand(join(out, "registry"), ["--version"])).stdout).toContain(" v3.1.2");
    expect(lines[0]).toBe(`downloading ${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH}`);
    expect(lines[1]).toMatch(
      new RegExp(`^downloaded ${REGISTRY_ARCHIVE.replaceAll(".", "\\.")} \\(\\d+\\.\\d MiB, sha256 verified\\) in \\d+\\.\\ds$`),
    );
    expect(lines).toHaveLength(2);
  });

  it("checks a pinned SHA-256 without asking for the .sha256", async () => {
    mirror.routes.set(REGISTRY_PATH, { file: registry.path });
    await downloadRelease({ ...registryRelease, pinned: registry.sha256 }, out, { log });
    expect(mirror.requests).toEqual([REGISTRY_PATH]);
    expect(await readdir(out)).toEqual(["registry"]);
  });

  it("refuses an archive that does not match its .sha256, and keeps nothing", async () => {
    const wrong = "ab".repeat(32);
    mirror.routes.set(REGISTRY_PATH, { file: registry.path }).set(`${REGISTRY_PATH}.sha256`, { text: `${wrong}\n` });
    const err = await failure(downloadRelease(registryRelease, out, { log }));
    expect(err.code).toBe("ERR_BINARY_DOWNLOAD");
    expect(err.failure).toBe("checksum");
    expect(err.url).toBe(`${mirror.base}${REGISTRY_PATH}`);
    expect(err.message).toBe(
      `${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH} has sha256 ${registry.sha256}, but ${mirror.base}${REGISTRY_PATH}.sha256 says ${wrong}`,
    );
    expect(await readdir(out)).toEqual([]);
  });

  it("refuses an archive that does not match the pinned SHA-256 (the upstream one), and keeps nothing", async () => {
    mirror.routes.set(REGISTRY_PATH, { file: registry.path });
    const err = await failure(downloadRelease({ ...registryRelease, pinned: REGISTRY_ARCHIVE_SHA256.amd64 }, out, { log }));
    expect([err.failure, err.message]).toEqual([
      "checksum",
      `${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH} has sha256 ${registry.sha256}, but the SHA-256 pinned for this release says ${REGISTRY_ARCHIVE_SHA256.amd64}`,
    ]);
    expect(await readdir(out)).toEqual([]);
  });

  it("names an archive that holds no registry", async () => {
    const empty = await packRegistryArchive(dir, "no-registry.tar.gz", undefined);
    mirror.routes.set(REGISTRY_PATH, { file: empty.path }).set(`${REGISTRY_PATH}.sha256`, { text: empty.sha256 });
    const err = await failure(downloadRelease(registryRelease, out, { log }));
    expect([err.failure, err.message]).toEqual(["archive", `${REGISTRY_ARCHIVE} from ${mirror.base}${REGISTRY_PATH} holds no registry`]);
    expect(await readdir(out)).toEqual([]);
  });
});

describe("parseChecksum", () => {
  const hash = "0f".repeat(64);
  it.each([
    ["a sha512sum line", `${hash}  /envtest.tar.gz\n`],
    ["a bare hash", hash],
    ["upper case", hash.toUpperCase()],
  ])("reads %s", (_name, text) => {
    expect(parseChecksum(text, "u", "sha512")).toBe(hash);
  });

  it("reads a bare sha256 (what the registry and Kubernetes releases publish)", () => {
    expect(parseChecksum(`${"0f".repeat(32)}\n`, "u", "sha256")).toBe("0f".repeat(32));
  });

  it.each([
    [
      "no checksum",
      "<html>Not here</html>",
      "sha512",
      'http://m/x holds no sha512 checksum (expected 128 hex digits, got "<html>Not here</html>")',
    ],
    [
      "a sha512 where a sha256 belongs",
      hash,
      "sha256",
      `http://m/x holds no sha256 checksum (expected 64 hex digits, got "${"0f".repeat(20)}")`,
    ],
  ] as const)("refuses %s, naming the file", (_name, text, digest, message) => {
    expect(() => parseChecksum(text, "http://m/x", digest)).toThrow(message);
  });
});
