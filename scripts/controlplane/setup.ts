/**
 * `npm run controlplane:setup`: finds, downloads (envtest archive, `COCOON_CONTROLPLANE_DOWNLOAD_URL`) or builds etcd and
 * kube-apiserver for the integration tests, then kube-scheduler and kube-controller-manager of the same release (the
 * published binaries, `COCOON_COMPONENT_DOWNLOAD_URL`, or a Go build), for the tests that start a control plane with
 * a scheduler or the node lifecycle controller.
 *
 * Prints `TEST_ASSET_ETCD=...`, `TEST_ASSET_KUBE_APISERVER=...`, `TEST_ASSET_KUBE_SCHEDULER=...` and
 * `TEST_ASSET_KUBE_CONTROLLER_MANAGER=...` on stdout (so `export $(npm run -s controlplane:setup)` points later runs
 * straight at them) and progress on stderr. `--without-scheduler` leaves both components out (CI's other Kubernetes
 * releases run no test that needs them).
 * Exits 1 with the reason when there are no binaries, the download is off or fails, and there is no `go`.
 *
 * @module
 */
import { isCocoonError } from "../../src/errors.js";
import { ensureControllerManagerBinary, ensureControlPlaneBinaries, ensureSchedulerBinary } from "../../src/testing/binaries/binaries.js";
import { kubernetesVersionOf } from "../../src/testing/binaries/versions.js";

const started = Date.now();
const withScheduler = !process.argv.includes("--without-scheduler");
try {
  const binaries = await ensureControlPlaneBinaries();
  process.stdout.write(`TEST_ASSET_ETCD=${binaries.etcd}\nTEST_ASSET_KUBE_APISERVER=${binaries.kubeApiserver}\n`);
  const sources = [`etcd and kube-apiserver from ${binaries.source}`];
  if (withScheduler) {
    const kubernetesVersion = await kubernetesVersionOf(binaries.kubeApiserver);
    const scheduler = await ensureSchedulerBinary({ kubernetesVersion });
    process.stdout.write(`TEST_ASSET_KUBE_SCHEDULER=${scheduler.kubeScheduler}\n`);
    sources.push(`kube-scheduler from ${scheduler.source}`);
    const manager = await ensureControllerManagerBinary({ kubernetesVersion });
    process.stdout.write(`TEST_ASSET_KUBE_CONTROLLER_MANAGER=${manager.kubeControllerManager}\n`);
    sources.push(`kube-controller-manager from ${manager.source}`);
  }
  process.stderr.write(`[controlplane] ${sources.join(", ")} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
} catch (err) {
  process.stderr.write(`[controlplane] ${isCocoonError(err) ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
