/**
 * Downloading a published binary: fetch with an idle deadline, check the digest its release
 * publishes (or this library pins), then unpack the binaries from an archive.
 */
import { createHash } from "node:crypto";
import { chmod, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { formatElapsed, runCommand, type ProgressLog } from "./command.js";

/** Why a download of prebuilt binaries failed; see {@link BinaryDownloadError}. */
export const DownloadFailure = {
  /** The server answered 404: the mirror has no such file. */
  NotFound: "not-found",
  /** The server answered another unexpected HTTP status. */
  Status: "status",
  /** The archive does not hash to its published sha512, or the checksum file is malformed. */
  Checksum: "checksum",
  /** No bytes arrived within the timeout. */
  Timeout: "timeout",
  /** The server could not be reached, or the connection broke. */
  Transport: "transport",
  /** The archive could not be unpacked, or it lacks a binary. */
  Archive: "archive",
} as const;
/** One of the {@link DownloadFailure} values. */
export type DownloadFailure = (typeof DownloadFailure)[keyof typeof DownloadFailure];

/**
 * Prebuilt test binaries could not be downloaded; `failure` says why and `url` names the file.
 *
 * @example
 * ```ts
 * if (isCocoonError(err, "ERR_BINARY_DOWNLOAD")) console.error((err as BinaryDownloadError).failure);
 * ```
 */
export class BinaryDownloadError extends CocoonError {
  override name = "BinaryDownloadError";
  /** Why the download failed. */
  readonly failure: DownloadFailure;
  /** The URL that failed. */
  readonly url: string;

  /**
   * @param failure - Why the download failed.
   * @param url - The URL that failed.
   * @param message - Human-readable text naming the file and the URL.
   * @param options - Standard error options; `cause` keeps the underlying error.
   */
  constructor(failure: DownloadFailure, url: string, message: string, options?: ErrorOptions) {
    super("ERR_BINARY_DOWNLOAD", message, options);
    this.failure = failure;
    this.url = url;
  }
}

/** One published file: a binary, or an archive of binaries, and how its digest is known. @internal */
export interface Release {
  /** File name, for messages: `envtest-v1.35.4-linux-amd64.tar.gz`, `kube-scheduler`. */
  name: string;
  /** URL of the file; its checksum is the same URL plus `.sha256` or `.sha512`. */
  url: string;
  /** The digest the release publishes. */
  digest: "sha256" | "sha512";
  /** The digest pinned in this library for the upstream release; then no checksum file is read. */
  pinned?: string | undefined;
  /** The binaries to take from the archive, wherever they sit in it; none when the file is the binary. */
  unpack?: readonly string[];
}

/** Options of {@link downloadRelease}. @internal */
export interface DownloadOptions {
  /** Progress lines. */
  log: ProgressLog;
  /** Give up when no bytes arrive for this long (headers or body); default 30 s. */
  idleTimeoutMs?: number | undefined;
  /** Aborts the download. */
  signal?: AbortSignal | undefined;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const HEX_DIGITS = { sha256: 64, sha512: 128 } as const;
const PINNED = { sha256: "the SHA-256 pinned for this release", sha512: "the SHA-512 pinned for this release" } as const;

/**
 * Downloads `release` into `outDir` and leaves only its binaries there, executable.
 *
 * The checksum is fetched first, and nothing is unpacked or made executable before the file
 * matches it. On any failure `outDir` holds nothing of the download.
 *
 * @throws BinaryDownloadError naming the URL and the {@link DownloadFailure}.
 * @internal
 */
export async function downloadRelease(release: Release, outDir: string, options: DownloadOptions): Promise<void> {
  const started = Date.now();
  const { name, url, digest } = release;
  options.log(`downloading ${name} from ${url}`);
  const checksumUrl = `${url}.${digest}`;
  const expected = release.pinned ?? parseChecksum(await fetchText(checksumUrl, options), checksumUrl, digest);
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, name);
  const got = await downloadFile(url, file, digest, options);
  if (got.hex !== expected) {
    await rm(file, { force: true });
    const from = release.pinned === undefined ? checksumUrl : PINNED[digest];
    throw new BinaryDownloadError(
      DownloadFailure.Checksum,
      url,
      `${name} from ${url} has ${digest} ${got.hex}, but ${from} says ${expected}`,
    );
  }
  if (release.unpack === undefined) await chmod(file, 0o755);
  else await unpack(release, release.unpack, file, outDir);
  const mb = (got.bytes / 1024 / 1024).toFixed(1);
  options.log(`downloaded ${name} (${mb} MiB, ${digest} verified) in ${formatElapsed(Date.now() - started)}`);
}

/**
 * Reads the hash from a checksum file: a bare hash, or a `sha256sum`/`sha512sum` line (`<hex>  <name>`).
 *
 * @throws BinaryDownloadError `checksum` when the text starts with no hash of that length.
 * @internal
 */
export function parseChecksum(text: string, url: string, digest: "sha256" | "sha512"): string {
  const hash = text.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (new RegExp(`^[0-9a-f]{${HEX_DIGITS[digest]}}$`).test(hash)) return hash;
  throw new BinaryDownloadError(
    DownloadFailure.Checksum,
    url,
    `${url} holds no ${digest} checksum (expected ${HEX_DIGITS[digest]} hex digits, got "${text.slice(0, 40).trim()}")`,
  );
}

/**
 * Downloads `url` into `dest`, hashing it on the way. The bytes go to `<dest>.part`, renamed to
 * `dest` only when the body is complete and removed on any failure, so `dest` is never half-written.
 */
async function downloadFile(url: string, dest: string, digest: string, options: DownloadOptions): Promise<{ bytes: number; hex: string }> {
  const part = `${dest}.part`;
  const handle = await open(part, "w");
  try {
    const hash = createHash(digest);
    let bytes = 0;
    await fetchBody(url, options, async (chunk) => {
      hash.update(chunk);
      bytes += chunk.byteLength;
      await handle.write(chunk);
    });
    await handle.close();
    await rename(part, dest);
    return { bytes, hex: hash.digest("hex") };
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(part, { force: true });
    throw err;
  }
}

/** Fetches `url` as UTF-8 text (a checksum file), with the same deadline and errors as a download. */
async function fetchText(url: string, options: DownloadOptions): Promise<string> {
  const chunks: Uint8Array[] = [];
  await fetchBody(url, options, (chunk) => void chunks.push(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** GETs `url` and hands each body chunk to `onChunk`; aborts when no bytes arrive for the idle timeout. */
async function fetchBody(url: string, options: DownloadOptions, onChunk: (chunk: Uint8Array) => Promise<void> | void): Promise<void> {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), idleMs);
  const touch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), idleMs);
  };
  const signal = options.signal ? AbortSignal.any([options.signal, idle.signal]) : idle.signal;
  try {
    const response = await fetch(url, { signal, redirect: "follow" });
    touch();
    if (!response.ok) {
      await response.body?.cancel();
      const failure = response.status === 404 ? DownloadFailure.NotFound : DownloadFailure.Status;
      throw new BinaryDownloadError(failure, url, `GET ${url}: HTTP ${response.status} ${response.statusText}`.trimEnd());
    }
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        touch();
        await onChunk(chunk);
      }
    }
  } catch (err) {
    if (err instanceof BinaryDownloadError) throw err;
    options.signal?.throwIfAborted();
    if (idle.signal.aborted) {
      throw new BinaryDownloadError(DownloadFailure.Timeout, url, `GET ${url}: no data for ${idleMs} ms, gave up`, { cause: err });
    }
    const reason = (err as Error & { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    throw new BinaryDownloadError(DownloadFailure.Transport, url, `GET ${url}: ${reason}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Unpacks `binaries` from the archive `file` into `outDir` as executables, leaving nothing else: each
 * is the regular file of that name anywhere in the archive, and both the unpacked tree and the
 * archive are removed whether or not this succeeds.
 */
async function unpack(release: Release, binaries: readonly string[], file: string, outDir: string): Promise<void> {
  const tree = join(outDir, "unpacked");
  const fail = (message: string, cause?: unknown): BinaryDownloadError =>
    new BinaryDownloadError(DownloadFailure.Archive, release.url, message, cause === undefined ? undefined : { cause });
  try {
    await mkdir(tree);
    await runCommand("tar", ["-xzf", file, "-C", tree]).catch((err: unknown) => {
      throw fail(`cannot unpack ${release.name}: ${(err as Error).message}`, err);
    });
    const entries = await readdir(tree, { recursive: true, withFileTypes: true });
    const found = binaries.map((binary) => {
      const entry = entries.find((e) => e.isFile() && e.name === binary);
      if (!entry) throw fail(`${release.name} from ${release.url} holds no ${binary}`);
      return { from: join(entry.parentPath, entry.name), to: join(outDir, binary) };
    });
    for (const { from, to } of found) {
      await rename(from, to);
      await chmod(to, 0o755);
    }
  } finally {
    await rm(tree, { recursive: true, force: true });
    await rm(file, { force: true });
  }
}
