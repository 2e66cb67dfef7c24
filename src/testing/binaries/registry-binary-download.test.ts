import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { BinaryDownloadError } from "./download-error.js";
import { startMirror, type Mirror } from "./envtest-mirror.fixture.js";
import { registryArchive } from "./registry-archive.js";
import { ensureRegistryBinary } from "./registry-binary.js";
import { CACHED_REGISTRY, packRegistryArchive } from "./registry-mirror.fixture.js";

const ARCHIVE = registryArchive("", "linux", process.arch)!.name;
const PATH = `/v3.1.2/${ARCHIVE}`;

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
    const packed = await packRegistryArchive(dir, ARCHIVE, CACHED_REGISTRY);
    sha256 = packed.sha256;
    mirror = await startMirror();
    mirror.routes.set(PATH, { file: packed.path });
  }, 60_000);
  afterAll(async () => {
    await mirror.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    root = await mkdtemp(join(dir, "cache-"));
    lines = [];
    mirror.requests.length = 0;
    mirror.routes.set(`${PATH}.sha256`, { text: `${sha256}\n` });
  });

  it("downloads into the cache without go, then finds it there", async () => {
    const cacheDir = join(root, "v3.1.2");
    const first = await ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(first).toEqual({ registry: join(cacheDir, "registry"), source: "download" });
    expect(await readdir(root)).toEqual(["v3.1.2"]); // no lock, no tmp folder left
    expect(await readdir(cacheDir)).toEqual(["registry"]);
    expect(lines[0]).toBe(`downloading ${ARCHIVE} from ${mirror.base}${PATH}`);
    expect(lines.at(-1)).toMatch(/^the distribution registry v3\.1\.2 ready in \d+\.\ds$/);
    expect(lines).toHaveLength(3);
    const second = await ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log });
    expect(second.source).toBe("cache");
    expect(mirror.requests).toEqual([`${PATH}.sha256`, PATH]);
  });

  it("downloads once when two callers start together; the other waits on the lock and finds the cache", async () => {
    const cacheDir = join(root, "v3.1.2");
    const both = await Promise.all([1, 2].map(() => ensureRegistryBinary({ env: noGo(), cacheDir, downloadUrl: mirror.base, log })));
    expect(both.map((b) => b.source).sort()).toEqual(["cache", "download"]);
    expect(mirror.requests).toEqual([`${PATH}.sha256`, PATH]);
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
    expect(mirror.requests).toEqual([`${PATH}.sha256`, PATH]);
  });

  it("without go, a bad checksum is one error naming the download as its cause, and the cache stays empty", async () => {
    mirror.routes.set(`${PATH}.sha256`, { text: "cd".repeat(32) });
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
    mirror.routes.delete(`${PATH}.sha256`);
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
      `downloading ${ARCHIVE} from ${mirror.base}${PATH}`,
      `GET ${mirror.base}${PATH}.sha256: HTTP 404 Not Found; building with go instead`,
      `building the distribution registry v3.1.2 into ${cacheDir}`,
    ]);
    expect(await readdir(root)).toEqual([]);
  });
});
