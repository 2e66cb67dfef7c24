/**
 * `npm run controlplane:setup`: finds, downloads (envtest archive, `COCOON_CONTROLPLANE_DOWNLOAD_URL`) or builds etcd and
 * kube-apiserver for the integration tests.
 *
 * Prints `TEST_ASSET_ETCD=...` and `TEST_ASSET_KUBE_APISERVER=...` on stdout (so
 * `export $(npm run -s controlplane:setup)` points later runs straight at them) and progress on stderr.
 * Exits 1 with the reason when there are no binaries, the download is off or fails, and there is no `go`.
 *
 * @module
 */
import { isCocoonError } from "../../src/errors.js";
import { ensureControlPlaneBinaries } from "../../src/testing/binaries/control-plane-binaries.js";

const started = Date.now();
try {
  const binaries = await ensureControlPlaneBinaries();
  process.stdout.write(`TEST_ASSET_ETCD=${binaries.etcd}\nTEST_ASSET_KUBE_APISERVER=${binaries.kubeApiserver}\n`);
  process.stderr.write(`[controlplane] binaries from ${binaries.source} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
} catch (err) {
  process.stderr.write(`[controlplane] ${isCocoonError(err) ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
