/**
 * A virtual kubelet's cold import against client-node's own: each round starts fresh Node processes, in
 * turns, that import from the built package (`dist/`) what a virtual kubelet loads (`./meta`, `./oci`,
 * `./snapshot`, `./k8s`, which loads `@kubernetes/client-node`), the same on `./kubelet` in place of `./k8s`
 * (no client-node; with `./snapshot` and without), or `@kubernetes/client-node` alone (the named peer), and print the milliseconds from before the
 * first `import()` to after the last. Median [min–max] of the rounds, and the ratio of the medians.
 *
 * Run: npm run build && npm run bench:kubelet-import [-- --rounds 15]
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "15" } } });
const rounds = Number(args.rounds);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = (entry: string): string => pathToFileURL(path.join(root, "dist", entry, "index.js")).href;

const CASES = {
  "client-node": ["@kubernetes/client-node"],
  kubelet: [dist("meta"), dist("oci"), dist("snapshot"), dist("k8s")],
  "kubelet-native": [dist("meta"), dist("oci"), dist("snapshot"), dist("kubelet")],
  "kubelet-native-no-snapshot": [dist("meta"), dist("oci"), dist("kubelet")],
} as const satisfies Record<string, readonly string[]>;
type Case = keyof typeof CASES;

/** Milliseconds a fresh process takes to import `specifiers`, one after the other. */
function importMs(specifiers: readonly string[]): number {
  const imports = specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(" ");
  const script = `const t = performance.now(); ${imports} console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }).trim());
}

const samples: Record<Case, number[]> = { "client-node": [], kubelet: [], "kubelet-native": [], "kubelet-native-no-snapshot": [] };
importMs(CASES.kubelet); // the files into the page cache once
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(CASES) as Case[]) samples[name].push(importMs(CASES[name]));
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const row = (name: Case): string => {
  const xs = samples[name];
  return `| ${name} | ${median(xs).toFixed(0)} ms [${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}] |`;
};
console.log(`Node ${process.version}, ${rounds} rounds, fresh processes in turns`);
console.log("| import | time |\n|---|---:|");
for (const name of Object.keys(CASES) as Case[]) console.log(row(name));
for (const name of Object.keys(CASES) as Case[]) {
  if (name !== "client-node") console.log(`${name} / client-node: ${(median(samples[name]) / median(samples["client-node"])).toFixed(2)}`);
}
