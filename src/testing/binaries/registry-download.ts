import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { unpackBinaries } from "./archive-unpack.js";
import { formatElapsed } from "./build-progress.js";
import { BinaryDownloadError, DownloadFailure } from "./download-error.js";
import { downloadSha256Checked, fetchText } from "./download-file.js";
import type { EnvtestDownloadOptions } from "./envtest-download.js";
import type { RegistryArchive } from "./registry-archive.js";

/**
 * Downloads a distribution release archive, checks its SHA-256, and unpacks `registry` into `outDir`.
 *
 * The expected SHA-256 is the one pinned for the upstream release, or else the first word of the
 * `.sha256` file next to the archive (the release publishes a bare hash there). Nothing is unpacked
 * before the checksum matches, and on any failure `outDir` holds nothing.
 *
 * @throws BinaryDownloadError naming the URL and the {@link DownloadFailure}.
 * @internal
 */
export async function downloadRegistryBinary(archive: RegistryArchive, outDir: string, options: EnvtestDownloadOptions): Promise<void> {
  const started = Date.now();
  options.log(`downloading ${archive.name} from ${archive.url}`);
  const expected = archive.sha256 ?? parseSha256(await fetchText(archive.sha256Url, options), archive.sha256Url);
  const source = archive.sha256 === undefined ? archive.sha256Url : "the SHA-256 pinned for this release";
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, archive.name);
  const got = await downloadSha256Checked(archive.url, file, archive.name, { sha256: expected, from: source }, options);
  await unpackBinaries({ name: archive.name, url: archive.url, file, binaries: ["registry"] }, outDir);
  const mb = (got.bytes / 1024 / 1024).toFixed(1);
  options.log(`downloaded ${archive.name} (${mb} MiB, sha256 verified) in ${formatElapsed(Date.now() - started)}`);
}

/** Reads the hash from a `.sha256` file: a bare hash, or a `sha256sum` line (`<64 hex>  <name>`). */
export function parseSha256(text: string, url: string): string {
  const hash = text.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (!/^[0-9a-f]{64}$/.test(hash)) {
    throw new BinaryDownloadError(
      DownloadFailure.Checksum,
      url,
      `${url} holds no sha256 checksum (expected 64 hex digits, got "${text.slice(0, 40).trim()}")`,
    );
  }
  return hash;
}
