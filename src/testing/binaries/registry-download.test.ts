import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BinaryDownloadError } from "./download-error.js";
import { startMirror, type Mirror } from "./envtest-mirror.fixture.js";
import {
  REGISTRY_ARCHIVE_SHA256,
  REGISTRY_DOWNLOAD_URL,
  registryArchive,
  registryDownloadBaseFrom,
  type RegistryArchive,
} from "./registry-archive.js";
import { downloadRegistryBinary, parseSha256 } from "./registry-download.js";
import { CACHED_REGISTRY, packRegistryArchive } from "./registry-mirror.fixture.js";
import { runCommand } from "./run-command.js";

const ARCHIVE = "registry_3.1.2_linux_amd64.tar.gz";
const PATH = `/v3.1.2/${ARCHIVE}`;

describe("downloadRegistryBinary", () => {
  let dir: string;
  let mirror: Mirror;
  let good: { path: string; sha256: string };
  let archive: RegistryArchive;
  let out: string;
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const failure = (promise: Promise<unknown>): Promise<BinaryDownloadError> =>
    promise.then(
      () => expect.fail("the download succeeded"),
      (err: unknown) => (expect(err).toBeInstanceOf(BinaryDownloadError), err as BinaryDownloadError),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-registry-download-"));
    good = await packRegistryArchive(dir, ARCHIVE, CACHED_REGISTRY);
    mirror = await startMirror();
    archive = registryArchive(mirror.base, "linux", "x64")!;
  }, 60_000);
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

  it("fetches the archive and its .sha256 in the release's layout, and unpacks only registry", async () => {
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha256`, { text: `${good.sha256}\n` });
    await downloadRegistryBinary(archive, out, { log });
    expect(mirror.requests).toEqual([`${PATH}.sha256`, PATH]);
    expect(await readdir(out)).toEqual(["registry"]); // no README, LICENSE, archive, tree or .part left
    expect((await stat(join(out, "registry"))).size).toBe((await stat(CACHED_REGISTRY)).size);
    expect((await stat(join(out, "registry"))).mode & 0o777).toBe(0o755);
    expect((await runCommand(join(out, "registry"), ["--version"])).stdout).toContain(" v3.1.2");
    expect(lines[0]).toBe(`downloading ${ARCHIVE} from ${mirror.base}${PATH}`);
    expect(lines[1]).toMatch(
      new RegExp(`^downloaded ${ARCHIVE.replaceAll(".", "\\.")} \\(\\d+\\.\\d MiB, sha256 verified\\) in \\d+\\.\\ds$`),
    );
    expect(lines).toHaveLength(2);
  });

  it("checks a pinned SHA-256 without asking for the .sha256", async () => {
    mirror.routes.set(PATH, { file: good.path });
    await downloadRegistryBinary({ ...archive, sha256: good.sha256 }, out, { log });
    expect(mirror.requests).toEqual([PATH]);
    expect(await readdir(out)).toEqual(["registry"]);
  });

  it("refuses an archive that does not match its .sha256, and keeps nothing", async () => {
    const wrong = "ab".repeat(32);
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha256`, { text: `${wrong}\n` });
    const err = await failure(downloadRegistryBinary(archive, out, { log }));
    expect(err.code).toBe("ERR_BINARY_DOWNLOAD");
    expect(err.failure).toBe("checksum");
    expect(err.url).toBe(`${mirror.base}${PATH}`);
    expect(err.message).toBe(
      `${ARCHIVE} from ${mirror.base}${PATH} has sha256 ${good.sha256}, but ${mirror.base}${PATH}.sha256 says ${wrong}`,
    );
    expect(await readdir(out)).toEqual([]);
  });

  it("refuses an archive that does not match the pinned SHA-256 (the upstream one), and keeps nothing", async () => {
    mirror.routes.set(PATH, { file: good.path });
    const err = await failure(downloadRegistryBinary({ ...archive, sha256: REGISTRY_ARCHIVE_SHA256.amd64 }, out, { log }));
    expect([err.failure, err.message]).toEqual([
      "checksum",
      `${ARCHIVE} from ${mirror.base}${PATH} has sha256 ${good.sha256}, but the SHA-256 pinned for this release says ${REGISTRY_ARCHIVE_SHA256.amd64}`,
    ]);
    expect(await readdir(out)).toEqual([]);
  });

  it.each([
    ["the archive", PATH],
    ["its checksum", `${PATH}.sha256`],
  ])("reports a 404 of %s with the URL", async (_what, missing) => {
    mirror.routes.set(PATH, { file: good.path }).set(`${PATH}.sha256`, { text: good.sha256 });
    mirror.routes.delete(missing);
    const err = await failure(downloadRegistryBinary(archive, out, { log }));
    expect(err.failure).toBe("not-found");
    expect(err.message).toBe(`GET ${mirror.base}${missing}: HTTP 404 Not Found`);
    expect(await readdir(out)).toEqual([]);
  });

  it("gives up on a server that stops sending, past the idle timeout, and removes the partial file", async () => {
    mirror.routes.set(PATH, { stallAfter: "\x1f\x8b partial" }).set(`${PATH}.sha256`, { text: good.sha256 });
    const started = Date.now();
    const err = await failure(downloadRegistryBinary(archive, out, { log, idleTimeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect([err.failure, err.message]).toEqual(["timeout", `GET ${mirror.base}${PATH}: no data for 300 ms, gave up`]);
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(3000);
    expect(await readdir(out)).toEqual([]);
  });

  it("names an archive that holds no registry", async () => {
    const empty = await packRegistryArchive(dir, "no-registry.tar.gz", undefined);
    mirror.routes.set(PATH, { file: empty.path }).set(`${PATH}.sha256`, { text: empty.sha256 });
    const err = await failure(downloadRegistryBinary(archive, out, { log }));
    expect([err.failure, err.message]).toEqual(["archive", `${ARCHIVE} from ${mirror.base}${PATH} holds no registry`]);
    expect(await readdir(out)).toEqual([]);
  });
});

describe("parseSha256", () => {
  const hash = "0f".repeat(32);
  it.each([
    ["a bare hash (what the release publishes)", `${hash}\n`],
    ["a sha256sum line", `${hash}  registry_3.1.2_linux_amd64.tar.gz\n`],
    ["upper case", hash.toUpperCase()],
  ])("reads %s", (_name, text) => {
    expect(parseSha256(text, "u")).toBe(hash);
  });

  it("refuses a sha512, naming the file", () => {
    expect(() => parseSha256("0f".repeat(64), "http://m/x.sha256")).toThrow(
      `http://m/x.sha256 holds no sha256 checksum (expected 64 hex digits, got "${"0f".repeat(20)}")`,
    );
  });
});

describe("registryArchive", () => {
  it.each([
    ["x64", "amd64"],
    ["arm64", "arm64"],
    ["ppc64", "ppc64le"],
    ["s390x", "s390x"],
    ["riscv64", "riscv64"],
  ] as const)("upstream, linux/%s is the %s archive with its pinned SHA-256", (arch, cpu) => {
    const name = `registry_3.1.2_linux_${cpu}.tar.gz`;
    const url = `${REGISTRY_DOWNLOAD_URL}/v3.1.2/${name}`;
    expect(registryArchive(`${REGISTRY_DOWNLOAD_URL}/`, "linux", arch)).toEqual({
      name,
      url,
      sha256: REGISTRY_ARCHIVE_SHA256[cpu],
      sha256Url: `${url}.sha256`,
    });
  });

  it("pins the amd64 SHA-256 the v3.1.2 release publishes", () => {
    expect(REGISTRY_ARCHIVE_SHA256.amd64).toBe("40df2224d410f72ae425c3371873b078bbdbda3b8b612be9571f0e6751f3acc8");
  });

  it("reads a mirror's checksum from its .sha256, and pins nothing for another version", () => {
    const url = "https://mirror.example/registry/v3.1.2/registry_3.1.2_linux_amd64.tar.gz";
    expect(registryArchive("https://mirror.example/registry", "linux", "x64")).toEqual({
      name: "registry_3.1.2_linux_amd64.tar.gz",
      url,
      sha256: undefined,
      sha256Url: `${url}.sha256`,
    });
    expect(registryArchive(REGISTRY_DOWNLOAD_URL, "linux", "x64", "v3.0.0")?.sha256).toBeUndefined();
  });

  it("has nothing outside Linux or for a CPU the release does not build", () => {
    expect(registryArchive(REGISTRY_DOWNLOAD_URL, "darwin", "arm64")).toBeUndefined();
    expect(registryArchive(REGISTRY_DOWNLOAD_URL, "win32", "x64")).toBeUndefined();
    expect(registryArchive(REGISTRY_DOWNLOAD_URL, "linux", "ia32")).toBeUndefined();
  });
});

describe("registryDownloadBaseFrom", () => {
  it.each([
    [{}, REGISTRY_DOWNLOAD_URL],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: "" }, REGISTRY_DOWNLOAD_URL],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: " http://127.0.0.1:1/m " }, "http://127.0.0.1:1/m"],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: "off" }, undefined],
    [{ COCOON_CONTROLPLANE_DOWNLOAD_URL: "off" }, REGISTRY_DOWNLOAD_URL],
  ])("%j gives %s", (env, base) => {
    expect(registryDownloadBaseFrom(env)).toBe(base);
  });
});
