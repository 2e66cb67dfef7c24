import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { unpackBinaries } from "./archive-unpack.js";
import { formatElapsed, type ProgressLog } from "./build-progress.js";
import { BinaryDownloadError, DownloadFailure } from "./download-error.js";
import { downloadFile, fetchText, type DownloadOptions } from "./download-file.js";
import type { EnvtestArchive } from "./envtest-archive.js";

/** Options of {@link downloadEnvtestBinaries}. */
export interface EnvtestDownloadOptions extends DownloadOptions {
  /** Progress lines. */
  log: ProgressLog;
}

/** The binaries taken from an envtest archive; its `kubectl` is left out. */
export const ENVTEST_BINARIES = ["etcd", "kube-apiserver"] as const;

/**
 * Downloads an envtest archive, checks it against its `.sha512`, and unpacks `etcd` and `kube-apiserver` into `outDir`.
 *
 * As setup-envtest does, the checksum is the first word of the `sha512sum` line next to the archive,
 * and each binary is the regular file of that name anywhere in the archive (upstream nests them in
 * `controller-tools/envtest/`). Nothing is unpacked before the checksum matches.
 *
 * @throws BinaryDownloadError naming the URL and the {@link DownloadFailure}.
 * @internal
 */
export async function downloadEnvtestBinaries(archive: EnvtestArchive, outDir: string, options: EnvtestDownloadOptions): Promise<void> {
  const started = Date.now();
  options.log(`downloading ${archive.name} from ${archive.url}`);
  const expected = parseSha512(await fetchText(archive.sha512Url, options), archive.sha512Url);
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, archive.name);
  const got = await downloadFile(archive.url, file, options);
  if (got.sha512 !== expected) {
    await rm(file, { force: true });
    throw new BinaryDownloadError(
      DownloadFailure.Checksum,
      archive.url,
      `${archive.name} from ${archive.url} has sha512 ${got.sha512}, but ${archive.sha512Url} says ${expected}`,
    );
  }
  await unpackBinaries({ name: archive.name, url: archive.url, file, binaries: ENVTEST_BINARIES }, outDir);
  const mb = (got.bytes / 1024 / 1024).toFixed(1);
  options.log(`downloaded ${archive.name} (${mb} MiB, sha512 verified) in ${formatElapsed(Date.now() - started)}`);
}

/** Reads the hash from a `sha512sum` line (`<128 hex>  <name>`), or a bare hash. */
export function parseSha512(text: string, url: string): string {
  const hash = text.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (!/^[0-9a-f]{128}$/.test(hash)) {
    throw new BinaryDownloadError(
      DownloadFailure.Checksum,
      url,
      `${url} holds no sha512 checksum (expected 128 hex digits, got "${text.slice(0, 40).trim()}")`,
    );
  }
  return hash;
}
