/**
 * Pushes or pulls a v1 snapshot with the code of one tree of transpiled sources, in a process of
 * its own so its peak RSS is its own. Called by `bench/v1-memory.bench.ts`, once with this tree's
 * `src` and once with an older commit's, alternately. The first round is cold, the others warm.
 * `rounds` 0 loads the code and does nothing: the RSS of the process without a transfer.
 * Prints `{"seconds":[…],"cpuSeconds":[…],"maxRssMiB":…,"peak":{…}}`: `VmHWM` from
 * `/proc/self/status` (Linux), and the largest `process.memoryUsage()` fields sampled every 20 ms.
 *
 * Usage: node v1-run.mjs <transpiled src root> <push|pull> <registry host> <vm> <export.tar> <rounds>
 */
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Writable } from "node:stream";

const [root, op, host, vm, tar, roundsArg] = process.argv.slice(2) as [string, string, string, string, string, string];

interface Code {
  readonly OCIRegistry: new (
    host: string,
    options: { timeoutMs: number },
  ) => { getManifest(name: string, ref: string): Promise<{ data: Uint8Array }> };
  readonly streamSnapshot: (data: Uint8Array, registry: unknown, options: { name: string; output: Writable }) => Promise<void>;
  readonly pushSnapshot: (input: unknown, registry: unknown, options: { name: string }) => Promise<unknown>;
  readonly readExportFile: (path: string) => unknown;
}

const load = async (file: string): Promise<unknown> => import(pathToFileURL(path.resolve(root, file)).href);
const code = { ...((await load("oci/index.js")) as object), ...((await load("snapshot/index.js")) as object) } as Code;
const registry = new code.OCIRegistry(host, { timeoutMs: 120_000 });

const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
const sample = (): void => {
  const m = process.memoryUsage();
  for (const key of Object.keys(peak) as (keyof typeof peak)[]) peak[key] = Math.max(peak[key], m[key] / 2 ** 20);
};
const sampler = setInterval(sample, 20);

const seconds: number[] = [];
const cpuSeconds: number[] = [];
for (let round = 0; round < Number(roundsArg); round++) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  if (op === "push") {
    await code.pushSnapshot(code.readExportFile(tar), registry, { name: `${vm}-${process.pid}-${round}` });
  } else {
    const { data } = await registry.getManifest(vm, "latest");
    const sink = createWriteStream("/dev/null");
    await code.streamSnapshot(data, registry, { name: vm, output: sink });
    if (sink.bytesWritten === 0) throw new Error("pull wrote nothing");
  }
  seconds.push((performance.now() - started) / 1000);
  const used = process.cpuUsage(cpu);
  cpuSeconds.push((used.user + used.system) / 1e6);
}
sample();
clearInterval(sampler);
// VmHWM, not maxRSS: a process's maxRSS starts at its forking parent's RSS, and the parent here is a large bench.
const hwmKiB = Number(/^VmHWM:\s+(\d+) kB$/mu.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, maxRssMiB: hwmKiB / 1024, peak })}\n`);
