/**
 * Pulls a snapshot with the pull code of one tree of transpiled sources, in a process of its own
 * so its peak RSS is its own. Called by `bench/pull-baseline.bench.ts`, once with this tree's `src`
 * and once with an older commit's, alternately, each transpiled to plain JavaScript. The first round is cold (a fresh process), the others warm.
 * `rounds` 0 loads the code and pulls nothing: the RSS of the process without a pull.
 * Prints `{"seconds":[…],"cpuSeconds":[…],"bytes":[…],"maxRssMiB":…,"processCpuSeconds":…}`: each round's wall
 * and CPU (user + system, this process's threads) seconds and the bytes it wrote, the peak RSS from
 * `/proc/self/status` (Linux), and the CPU seconds of the whole process, from its start.
 *
 * Usage: node pull-run.mjs <transpiled src root> <registry host> <vm> <memory budget MiB> <rounds> <output: /dev/null or a file>
 */
import { createWriteStream, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Writable } from "node:stream";

const [root, host, vm, budget, roundsArg, output] = process.argv.slice(2) as [string, string, string, string, string, string];

interface PullCode {
  readonly OCIRegistry: new (
    host: string,
    options: { timeoutMs: number },
  ) => { getManifest(name: string, ref: string): Promise<{ data: Uint8Array }> };
  readonly streamSnapshot: (
    data: Uint8Array,
    registry: unknown,
    options: { name: string; output: Writable; memoryBudgetMiB: number },
  ) => Promise<void>;
}

const load = async (file: string): Promise<unknown> => import(pathToFileURL(path.resolve(root, file)).href);
const code = { ...((await load("oci/index.js")) as object), ...((await load("snapshot/index.js")) as object) } as PullCode;
const registry = new code.OCIRegistry(host, { timeoutMs: 120_000 });

const seconds: number[] = [];
const cpuSeconds: number[] = [];
const bytes: number[] = [];
for (let round = 0; round < Number(roundsArg); round++) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { data } = await registry.getManifest(vm, "latest");
  const sink = createWriteStream(output);
  await code.streamSnapshot(data, registry, { name: vm, output: sink, memoryBudgetMiB: Number(budget) });
  if (sink.bytesWritten === 0) throw new Error("pull wrote nothing");
  seconds.push((performance.now() - started) / 1000);
  const used = process.cpuUsage(cpu);
  cpuSeconds.push((used.user + used.system) / 1e6);
  bytes.push(sink.bytesWritten);
  if (output !== "/dev/null") rmSync(output);
}
// VmHWM, not maxRSS: a process's maxRSS starts at its forking parent's RSS, and the parent here is a large bench.
const hwmKiB = Number(/^VmHWM:\s+(\d+) kB$/mu.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds, bytes, maxRssMiB: hwmKiB / 1024, processCpuSeconds: (total.user + total.system) / 1e6 })}\n`,
);
