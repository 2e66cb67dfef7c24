/**
 * One measured snapshot operation, run in its own process so its peak RSS is its own.
 * Called by `bench/snapshot.bench.ts`; prints `{"seconds":…,"cpuSeconds":…,"maxRssMiB":…}`.
 *
 * Usage: tsx bench/snapshot-run.ts <push|pull> <registry-host> <export.tar> <vm> <json options>
 */
import { Writable } from "node:stream";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile, streamSnapshot } from "../src/snapshot/index.js";

const [op, host, tarPath, vm, optionsJSON] = process.argv.slice(2) as [string, string, string, string, string];
const knobs = JSON.parse(optionsJSON) as Record<string, number>;
// A 120 s deadline per response (default 30 s): on a machine shared with other disk writers the registry can stall on writeback.
const registry = new OCIRegistry(host, { timeoutMs: 120_000 });
const cpuBefore = process.cpuUsage();
const started = performance.now();
if (op === "push") {
  // As an agent pushing an export file would: through the library's reader.
  await pushSnapshot(readExportFile(tarPath), registry, { name: vm, ...knobs });
} else {
  const { data } = await registry.getManifest(vm, "latest");
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  await streamSnapshot(data, registry, { name: vm, output: sink, ...knobs });
  if (bytes === 0) throw new Error("pull wrote nothing");
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
