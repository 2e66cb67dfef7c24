/**
 * A v1 (one raw layer) snapshot push and pull's peak RSS, time and client CPU, this tree against an
 * older commit's, alternated on the same exports and the same registry; beside them the peak RSS
 * of a bare `node` and of a process that loaded the code and moved nothing (issue 37: a v1 push
 * and pull within a bare `node` + 32 MiB), and of a bare `node` that streams each export through
 * SHA-256 into `/dev/null` (the allocation any process moving those bytes does; context, not the goal).
 *
 * The older commit's `src/` is unpacked from git into a temp folder, and each side is built from
 * its `src/` as the package is published, so a process holds the code a user's does: tsup with
 * tsup.config.ts's options (ESM, code splitting, tree-shaking), entries `./oci` and `./snapshot`.
 * `--form transpiled` runs each side's sources transpiled file by file instead (one module per
 * file, doc comments kept), as `bench:pull-baseline` does. Each side runs in a process of its own
 * (`bench/v1-run.ts`), the two taking turns pair after pair, the first of a pair alternating.
 * Exports: dense and sparse (`bench/snapshot-exports.ts`), default options (Go's defaults: no
 * budget given). A pull writes into `/dev/null` and pulls what this tree pushed once.
 *
 * Run: npm run bench:v1-memory [-- --base 1a9190d] [-- --form bundled|transpiled] [-- --size 1G] [-- --pairs 3]
 * [-- --rounds 3] [-- --write]
 */
import { execFile, execFileSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile } from "../src/snapshot/index.js";
import { startRegistry } from "../src/testing/index.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { median } from "./measure-async.js";
import { echoedLines } from "./report-table.js";
import { spread } from "./run-info.js";
import { sizeMiB, writeExport } from "./snapshot-exports.js";
import { FORM_METHOD, HWM_MIB, prepareSides } from "./transpile-tree.js";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "1a9190d" },
    form: { type: "string", default: "bundled" },
    size: { type: "string", default: "1G" },
    pairs: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    write: { type: "boolean", default: false },
  },
});
const SIZE = sizeMiB(args.size) * 2 ** 20;
const PAIRS = Number(args.pairs);
const ROUNDS = Number(args.rounds);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 2)) throw new Error(`--rounds ${args.rounds}: want 2 or more (one cold, the rest warm)`);
if (args.form !== "bundled" && args.form !== "transpiled") throw new Error(`--form ${args.form}: want bundled or transpiled`);
const { base, form, dir, sides, runner } = await prepareSides(args.base, "cocoon-v1-memory-", "bench/v1-run.ts", args.form);

interface Run {
  readonly seconds: number[];
  readonly cpuSeconds: number[];
  readonly maxRssMiB: number;
}

const execFileAsync = promisify(execFile);
async function run(root: string, op: string, host: string, vm: string, tar: string, rounds: number): Promise<Run> {
  const { stdout } = await execFileAsync(process.execPath, [runner, root, op, host, vm, tar, String(rounds)], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Run;
}

type Side = "base" | "ours";

/** A bare `node` reading a file (argv[1]) through SHA-256 into `/dev/null`, printing its peak RSS in MiB. */
const STREAM_THROUGH_SHA256 = `const fs = require("fs"), { pipeline, Transform } = require("stream"), hash = require("crypto").createHash("sha256");
pipeline(fs.createReadStream(process.argv[1]), new Transform({ transform(c, _e, cb) { hash.update(c); cb(null, c); } }), fs.createWriteStream("/dev/null"), (err) => { if (err) throw err; ${HWM_MIB}; });`;
const { lines, say } = echoedLines();
const registry = await startRegistry();
try {
  const oci = new OCIRegistry(registry.host, { timeoutMs: 120_000 });
  const bare = Number(execFileSync("node", ["-e", `setTimeout(() => { ${HWM_MIB} }, 500)`], { encoding: "utf8" }));
  const idle = {
    base: (await run(sides.base, "pull", registry.host, "none", "none", 0)).maxRssMiB,
    ours: (await run(sides.ours, "pull", registry.host, "none", "none", 0)).maxRssMiB,
  };
  const rows: string[] = [];
  const streaming: Record<string, number> = {};
  for (const kind of ["dense", "sparse"] as const) {
    const tar = path.join(dir, `${kind}.tar`);
    await writeExport(tar, SIZE, kind === "sparse");
    const mb = statSync(tar).size / 1e6;
    streaming[kind] = Number(execFileSync("node", ["-e", STREAM_THROUGH_SHA256, tar], { encoding: "utf8" }));
    const vm = `vm-${kind}`;
    await pushSnapshot(readExportFile(tar), oci, { name: vm });
    for (const op of ["push", "pull"] as const) {
      const warm: Record<Side, number[]> = { base: [], ours: [] };
      const cpu: Record<Side, number[]> = { base: [], ours: [] };
      const rss: Record<Side, number[]> = { base: [], ours: [] };
      for (let pair = 0; pair < PAIRS; pair++) {
        for (const side of pair % 2 === 0 ? (["base", "ours"] as const) : (["ours", "base"] as const)) {
          const r = await run(sides[side], op, registry.host, vm, tar, ROUNDS);
          warm[side].push(median(r.seconds.slice(1)));
          cpu[side].push(median(r.cpuSeconds.slice(1)));
          rss[side].push(r.maxRssMiB);
        }
      }
      const rate = (side: Side): string => (mb / median(warm[side])).toFixed(0);
      rows.push(
        `| ${kind} | ${op} | ${spread(rss.base, 0)} | **${spread(rss.ours, 0)}** | ${rate("base")} | ${rate("ours")} | ${spread(cpu.base)} | ${spread(cpu.ours)} |`,
      );
    }
    rmSync(tar);
  }
  say(
    `${SIZE / 2 ** 20} MiB exports, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "?"}, registry (CNCF distribution) on the same cores, ${new Date().toISOString().slice(0, 16)}Z.`,
  );
  say(
    `Older side: \`${base}\`; this side: \`${execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}\`${execFileSync("git", ["status", "--porcelain", "src"], { encoding: "utf8" }).trim() ? " with uncommitted changes" : ""}. ${PAIRS} pairs of processes, ${ROUNDS} rounds each (1 cold, ${ROUNDS - 1} warm).`,
  );
  say(`Both sides ${FORM_METHOD[form]}.`);
  say("");
  say(
    "| export | op | peak RSS MiB, older | peak RSS MiB, this | older warm MB/s | this warm MB/s | older client CPU s | this client CPU s |",
  );
  say("|---|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) say(row);
  say("");
  say(
    `"Bare", the goal's base: an idle \`node\` (\`node -e "setTimeout(…, 500)"\`), ${bare.toFixed(0)} MiB. Goal: bare + 32 = ${(bare + 32).toFixed(0)} MiB. A process that loads \`./oci\` and \`./snapshot\` and moves nothing: ${idle.base.toFixed(0)} MiB older, ${idle.ours.toFixed(0)} MiB this. For context, not the goal: a bare \`node\` that streams the export through SHA-256 into \`/dev/null\` (\`fs.createReadStream\`, 64 KiB pieces, no package, no network) peaks at ${streaming["dense"]?.toFixed(0) ?? "?"} MiB (dense) and ${streaming["sparse"]?.toFixed(0) ?? "?"} MiB (sparse): moving the bytes at all grows V8's young generation and Node's buffers.`,
  );
  say("");
  say(
    `One run, indicative (the machine is shared). Each side runs in a process of its own as plain \`node\`, ${form === "bundled" ? "built as the package is published (tsup, ESM, code splitting, tree-shaking); `--form transpiled` runs the sources transpiled file by file instead" : "its sources transpiled file by file (`--form transpiled`; the default, `--form bundled`, builds them as the package is published)"}; the two take turns, the first of a pair alternating. Peak RSS: \`VmHWM\` of each process over all its rounds, median [min–max] over the processes. MB/s: the export tar's bytes over the median warm round's seconds, median over the processes. Client CPU: user + system seconds of a process's median warm round, median [min–max].`,
  );
  say("");
  say(
    "`./snapshot` loads no zod (its `snapshot.json` check is generated from the schema), and a push and a pull send every request over the package's own HTTP client, never loading Node's `fetch`.",
  );
  if (args.write)
    writeBenchmarkSection("v1-memory", "v1 push and pull memory against an older commit (`npm run bench:v1-memory`)", lines.join("\n"));
} finally {
  rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}
