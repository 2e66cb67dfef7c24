import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { formatElapsed } from "./build-progress.js";
import { downloadSha256Checked, fetchText } from "./download-file.js";
import type { EnvtestDownloadOptions } from "./envtest-download.js";
import { parseSha256 } from "./registry-download.js";
import type { ComponentRelease } from "./component-release.js";

/**
 * Downloads a published component (`kube-scheduler`, `kube-controller-manager`) into `outDir/<command>`, checked against the `.sha256`
 * next to it (a bare hash, as `dl.k8s.io` publishes it), and makes it executable.
 *
 * The checksum is fetched first; nothing is kept unless the binary matches it.
 *
 * @throws BinaryDownloadError naming the URL and why (its `failure`).
 * @internal
 */
export async function downloadComponentBinary(release: ComponentRelease, outDir: string, options: EnvtestDownloadOptions): Promise<void> {
  const started = Date.now();
  const { command } = release;
  options.log(`downloading ${command} from ${release.url}`);
  const sha256 = parseSha256(await fetchText(release.sha256Url, options), release.sha256Url);
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, command);
  const got = await downloadSha256Checked(release.url, file, command, { sha256, from: release.sha256Url }, options);
  await chmod(file, 0o755);
  const mb = (got.bytes / 1024 / 1024).toFixed(1);
  options.log(`downloaded ${command} (${mb} MiB, sha256 verified) in ${formatElapsed(Date.now() - started)}`);
}
