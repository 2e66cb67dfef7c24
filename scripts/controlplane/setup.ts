/**
 * `npm run controlplane:setup`: finds, downloads (envtest archive, `COCOON_CONTROLPLANE_DOWNLOAD_URL`) or builds etcd and
 * kube-apiserver for the integration tests, then kube-scheduler of the same release (the published binary,
 * `COCOON_SCHEDULER_DOWNLOAD_URL`, or a Go build), for the tests that start a control plane with a scheduler.
 *
 * Prints `TEST_ASSET_ETCD=...`, `TEST_ASSET_KUBE_APISERVER=...` and `TEST_ASSET_KUBE_SCHEDULER=...` on stdout (so
 * `export $(npm run -s controlplane:setup)` points later runs straight at them) and progress on stderr.
 * `--without-scheduler` leaves kube-scheduler out (CI's other Kubernetes releases run no test that needs it).
 * Exits 1 with the reason when there are no binaries, the download is off or fails, and there is no `go`.
 *
 * @module
 */
import { isCocoonError } from "../../src/errors.js";
import { ensureControlPlaneBinaries } from "../../src/testing/binaries/control-plane-binaries.js";
import { kubernetesVersionOf } from "../../src/testing/binaries/kubernetes-version.js";
import { ensureSchedulerBinary } from "../../src/testing/binaries/scheduler-binary.js";

const started = Date.now();
const withScheduler = !process.argv.includes("--without-scheduler");
try {
  const binaries = await ensureControlPlaneBinaries();
  process.stdout.write(`TEST_ASSET_ETCD=${binaries.etcd}\nTEST_ASSET_KUBE_APISERVER=${binaries.kubeApiserver}\n`);
  const sources = [`etcd and kube-apiserver from ${binaries.source}`];
  if (withScheduler) {
    const scheduler = await ensureSchedulerBinary({ kubernetesVersion: await kubernetesVersionOf(binaries.kubeApiserver) });
    process.stdout.write(`TEST_ASSET_KUBE_SCHEDULER=${scheduler.kubeScheduler}\n`);
    sources.push(`kube-scheduler from ${scheduler.source}`);
  }
  process.stderr.write(`[controlplane] ${sources.join(", ")} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
} catch (err) {
  process.stderr.write(`[controlplane] ${isCocoonError(err) ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
