/**
 * Starts ONE control plane for a whole CI run and keeps it until SIGTERM or SIGINT.
 *
 * Writes `{ connection, binaries }` to the file named by its argument once the server is ready;
 * `test/global-setup.ts` uses it instead of starting its own when `COCOON_SHARED_CONTROL_PLANE`
 * names that file, so every runtime combination of the matrix runs against the same server.
 *
 *   tsx scripts/ci/shared-control-plane.ts /tmp/plane.json &
 *
 * @module
 */
import { renameSync, writeFileSync } from "node:fs";
import { ensureControlPlaneBinaries, startControlPlane } from "../../src/testing/index.js";

const file = process.argv[2];
if (file === undefined) throw new Error("usage: shared-control-plane.ts <connection-file>");

const binaries = await ensureControlPlaneBinaries();
const plane = await startControlPlane({ binaries });
const shared = { connection: plane.connection, binaries: { etcd: binaries.etcd, kubeApiserver: binaries.kubeApiserver } };
// Written whole, then renamed: a reader never sees half a file.
writeFileSync(`${file}.partial`, JSON.stringify(shared), { mode: 0o600 });
renameSync(`${file}.partial`, file);
process.stderr.write(`[controlplane] shared control plane at ${plane.server} ready in ${plane.startupMs} ms\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void plane.stop().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
setInterval(() => undefined, 1 << 30);
