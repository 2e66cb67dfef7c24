import { createHash } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { BinaryDownloadError, DownloadFailure } from "./download-error.js";

/** Options of {@link downloadFile} and {@link fetchText}. */
export interface DownloadOptions {
  /** Give up when no bytes arrive for this long (headers or body); default 30 s. */
  idleTimeoutMs?: number | undefined;
  /** Aborts the download. */
  signal?: AbortSignal | undefined;
}

/** What {@link downloadFile} wrote. */
export interface DownloadedFile {
  /** Bytes written. */
  bytes: number;
  /** Lower-case hex sha512 of those bytes. */
  sha512: string;
  /** Lower-case hex sha256 of those bytes. */
  sha256: string;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/**
 * Downloads `url` into `dest`, hashing it with sha512 and sha256 on the way.
 *
 * The bytes go to `<dest>.part`, which is renamed to `dest` only when the body is complete and
 * removed on any failure, so `dest` is never half-written.
 *
 * @throws BinaryDownloadError with the {@link DownloadFailure} and the URL.
 * @internal
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions = {}): Promise<DownloadedFile> {
  const part = `${dest}.part`;
  const handle = await open(part, "w");
  try {
    const sha512 = createHash("sha512");
    const sha256 = createHash("sha256");
    let bytes = 0;
    await fetchBody(url, options, async (chunk) => {
      sha512.update(chunk);
      sha256.update(chunk);
      bytes += chunk.byteLength;
      await handle.write(chunk);
    });
    await handle.close();
    await rename(part, dest);
    return { bytes, sha512: sha512.digest("hex"), sha256: sha256.digest("hex") };
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(part, { force: true });
    throw err;
  }
}

/**
 * {@link downloadFile}, then refuses a file whose SHA-256 is not `expected`, removing it.
 *
 * @param name - The file's name in the error (`kube-scheduler`).
 * @param expectedFrom - Who says `expected` (a checksum URL), in the error.
 * @throws BinaryDownloadError `checksum` naming both hashes, or as {@link downloadFile}.
 * @internal
 */
export async function downloadSha256Checked(
  url: string,
  dest: string,
  name: string,
  expected: { sha256: string; from: string },
  options: DownloadOptions = {},
): Promise<DownloadedFile> {
  const got = await downloadFile(url, dest, options);
  if (got.sha256 !== expected.sha256) {
    await rm(dest, { force: true });
    throw new BinaryDownloadError(
      DownloadFailure.Checksum,
      url,
      `${name} from ${url} has sha256 ${got.sha256}, but ${expected.from} says ${expected.sha256}`,
    );
  }
  return got;
}

/**
 * Fetches `url` as UTF-8 text (a checksum file), with the same timeout and errors as {@link downloadFile}.
 *
 * @internal
 */
export async function fetchText(url: string, options: DownloadOptions = {}): Promise<string> {
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
