/**
 * Measured snapshot operations, run in their own process so its peak RSS is their own.
 * Called by `bench/snapshot.bench.ts`. The first round is cold (a fresh process: code compiled,
 * memory faulted in, the HTTP client loaded); later rounds are warm, as in the virtual kubelet, which is a
 * long-lived process. A push round pushes to a repository of its own (`<vm>`, then `<vm>-warm1`,
 * ...), so no round finds its blobs already there; a pull round pulls `<vm>:latest` again.
 * `push-local` and `pull-local` push and pull with no registry and no HTTP (`bench/snapshot-local.ts`);
 * `pull-local` pushes once first, untimed.
 * Prints `{"rounds":[{"seconds":…,"cpuSeconds":…,"registryCpuSeconds":…}],"maxRssMiB":…}`, the peak RSS from `/proc/self/status` (Linux).
 *
 * Usage: tsx bench/snapshot-run.ts <push|pull|push-local|pull-local> <registry-host> <registry-pid> <export.tar> <vm> <json options> <rounds>
 */
import { createWriteStream, readFileSync } from "node:fs";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile, streamSnapshot } from "../src/snapshot/index.js";
import { processCpuSeconds } from "./proc-cpu.js";
import { pullLocal, pushLocal } from "./snapshot-local.js";

const [op, host, registryPid, tarPath, vm, optionsJSON, roundsArg] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const knobs = JSON.parse(optionsJSON) as Record<string, number>;
// A 120 s deadline per response (default 30 s): on a machine shared with other disk writers the registry can stall on writeback.
const registry = new OCIRegistry(host, { timeoutMs: 120_000 });

async function once(round: number): Promise<void> {
  if (op === "push-local") {
    await pushLocal(tarPath, knobs);
    return;
  }
  if (op === "pull-local") {
    if ((await pullLocal(knobs)) === 0) throw new Error("pull wrote nothing");
    return;
  }
  if (op === "push") {
    // As a virtual kubelet pushing an export file would: through the library's reader.
    await pushSnapshot(readExportFile(tarPath), registry, { name: round === 0 ? vm : `${vm}-warm${round}`, ...knobs });
    return;
  }
  const { data } = await registry.getManifest(vm, "latest");
  // As the virtual kubelet's pull into `cocoon snapshot import` would: into a file descriptor (here /dev/null, as the floor's).
  const sink = createWriteStream("/dev/null");
  await streamSnapshot(data, registry, { name: vm, output: sink, ...knobs });
  const bytes = sink.bytesWritten;
  if (bytes === 0) throw new Error("pull wrote nothing");
}

if (op === "pull-local") await pushLocal(tarPath, knobs); // what the pull rounds read, untimed
const rounds = [];
for (let round = 0; round < Number(roundsArg); round++) {
  const registryBefore = processCpuSeconds(Number(registryPid));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await once(round);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  rounds.push({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    registryCpuSeconds: processCpuSeconds(Number(registryPid)) - registryBefore,
  });
}
// VmHWM, not maxRSS: a process's maxRSS starts at its forking parent's RSS.
const hwmKiB = Number(/^VmHWM:\s+(\d+) kB$/mu.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
process.stdout.write(`${JSON.stringify({ rounds, maxRssMiB: hwmKiB / 1024 })}\n`);
