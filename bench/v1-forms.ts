/**
 * What the form a bench runs the code in costs a v1 push and pull: this tree's `./oci` and
 * `./snapshot` bundled as published against transpiled file by file (`bench/transpile-tree.ts`),
 * alternated process by process on one dense export and one registry. Prints each form's peak RSS
 * (`VmHWM`, median [min–max] over its processes) idle (code loaded, nothing moved), after pushes
 * and after pulls. Tells `bench:v1-memory`'s current rows from those measured transpiled.
 *
 * Run: npx tsx bench/v1-forms.ts [--pairs 5] [--size 1G] [--rounds 2]
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile } from "../src/snapshot/index.js";
import { startRegistry } from "../src/testing/index.js";
import { spread } from "./run-info.js";
import { sizeMiB, writeExport } from "./snapshot-exports.js";
import { type Form, prepareSides } from "./transpile-tree.js";

const { values: args } = parseArgs({
  options: {
    pairs: { type: "string", default: "5" },
    size: { type: "string", default: "1G" },
    rounds: { type: "string", default: "2" },
  },
});
const PAIRS = Number(args.pairs);
const bundled = await prepareSides("HEAD", "cocoon-v1-forms-", "bench/v1-run.ts", "bundled");
const transpiled = await prepareSides("HEAD", "cocoon-v1-forms-", "bench/v1-run.ts", "transpiled");
const roots: Record<Form, string> = { bundled: bundled.sides.ours, transpiled: transpiled.sides.ours };
const execFileAsync = promisify(execFile);
const registry = await startRegistry();
try {
  const tar = path.join(bundled.dir, "dense.tar");
  await writeExport(tar, sizeMiB(args.size) * 2 ** 20, false);
  await pushSnapshot(readExportFile(tar), new OCIRegistry(registry.host, { timeoutMs: 120_000 }), { name: "vm" });
  for (const [label, op, rounds] of [
    ["idle", "pull", "0"],
    ["push", "push", args.rounds],
    ["pull", "pull", args.rounds],
  ] as const) {
    const rss: Record<Form, number[]> = { bundled: [], transpiled: [] };
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const form of pair % 2 === 0 ? (["bundled", "transpiled"] as const) : (["transpiled", "bundled"] as const)) {
        const { stdout } = await execFileAsync(process.execPath, [bundled.runner, roots[form], op, registry.host, "vm", tar, rounds], {
          encoding: "utf8",
          maxBuffer: 1 << 24,
        });
        rss[form].push((JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as { maxRssMiB: number }).maxRssMiB);
      }
    }
    console.log(`${label}: peak RSS MiB, bundled ${spread(rss.bundled, 1)}, transpiled ${spread(rss.transpiled, 1)}`);
  }
} finally {
  for (const { dir } of [bundled, transpiled]) rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}
