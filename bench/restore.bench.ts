/**
 * `restoreSnapshot` against GNU `tar -x` on the same import tar, on the same disk: the tar is
 * written once (by the package's own tar writer, as a pull writes it) into a temp folder, holding
 * `snapshot.json`, a dense file of `--dense` MiB of random bytes, and a sparse file of `--sparse`
 * MiB of data in 4 MiB extents spread over 4× that size (`COCOON.sparse.*` records, which GNU tar
 * does not know: it writes that entry's stored bytes as a dense file, so it writes as many bytes).
 * Each round restores with one, then the other, into a fresh folder, in turns; throughput is the
 * tar's stored data bytes over the wall time, median [min–max] of the rounds. The page cache is
 * warm for both (the tar is read once before).
 *
 * Run: npm run bench:restore [-- --dense 256] [-- --sparse 256] [-- --rounds 5]
 */
import { execFileSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { TarWriter } from "../src/snapshot/codec/tar-writer.js";
import { formatSparseMap, restoreSnapshot, SparsePAX } from "../src/snapshot/index.js";

const { values: args } = parseArgs({
  options: {
    dense: { type: "string", default: "256" },
    sparse: { type: "string", default: "256" },
    rounds: { type: "string", default: "5" },
  },
});
const MiB = 2 ** 20;
const denseBytes = Number(args.dense) * MiB;
const sparseBytes = Number(args.sparse) * MiB;
const rounds = Number(args.rounds);
const EXTENT = 4 * MiB;

/** Writes the import tar: snapshot.json, a dense `memory` file, a sparse `memory-ranges` file. */
async function writeImportTar(file: string): Promise<void> {
  const tw = new TarWriter(createWriteStream(file));
  const piece = Buffer.alloc(EXTENT);
  const envelope = Buffer.from('{"version":1,"config":{"id":"bench","name":"vm"}}');
  await tw.writeHeader({ name: "snapshot.json", size: envelope.length, mode: 0o644, mtime: 0 });
  await tw.write(envelope);
  await tw.writeHeader({ name: "memory", size: denseBytes, mode: 0o600, mtime: 0 });
  for (let at = 0; at < denseBytes; at += EXTENT) await tw.write(randomFillSync(Buffer.alloc(Math.min(EXTENT, denseBytes - at))));
  const extents = Array.from({ length: Math.ceil(sparseBytes / EXTENT) }, (_, i) => ({
    offset: i * 4 * EXTENT,
    length: Math.min(EXTENT, sparseBytes - i * EXTENT),
  }));
  const pax = { [SparsePAX.Map]: formatSparseMap(extents), [SparsePAX.Size]: String(extents.length * 4 * EXTENT) };
  await tw.writeHeader({ name: "memory-ranges", size: sparseBytes, mode: 0o600, mtime: 0, pax });
  for (const e of extents) await tw.write(randomFillSync(piece.subarray(0, e.length)));
  await tw.close();
  await tw.sink.end();
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const fmt = (seconds: number[]): string => {
  const rates = seconds.map((s) => (denseBytes + sparseBytes) / MiB / s).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)] ?? 0;
  return `${median.toFixed(0)} MiB/s [${(rates[0] ?? 0).toFixed(0)}–${(rates.at(-1) ?? 0).toFixed(0)}]`;
};

const work = mkdtempSync(path.join(tmpdir(), "restore-bench-"));
try {
  const tar = path.join(work, "import.tar");
  await writeImportTar(tar);
  readFileSync(tar); // warm the page cache for both sides
  const ours: number[] = [];
  const gnu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = path.join(work, `ours-${round}`);
    const b = path.join(work, `tar-${round}`);
    mkdirSync(a);
    mkdirSync(b);
    ours.push(await timed(() => restoreSnapshot(createReadStream(tar, { highWaterMark: 4 * MiB }), a)));
    gnu.push(await timed(async () => execFileSync("tar", ["-x", "--sparse", "--warning=no-unknown-keyword", "-f", tar, "-C", b])));
    rmSync(a, { recursive: true });
    rmSync(b, { recursive: true });
  }
  const version = execFileSync("tar", ["--version"], { encoding: "utf8" }).split("\n")[0];
  console.log(
    `import tar: ${args.dense} MiB dense + ${args.sparse} MiB sparse data (of ${Number(args.sparse) * 4} MiB), ${rounds} rounds, Node ${process.version}`,
  );
  console.log(`restoreSnapshot       ${fmt(ours)}`);
  console.log(`tar -x --sparse       ${fmt(gnu)}   (${version})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
