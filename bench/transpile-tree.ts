/**
 * Transpiled copies of source trees, so a bench can run this tree's code and an older commit's
 * side by side as plain `node`, as a virtual kubelet would.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";

/** Transpiles every non-test `.ts` file under `from` into `.js` under `to`. */
export function transpileTree(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) transpileTree(source, path.join(to, entry.name));
    if (!entry.isFile() || !entry.name.endsWith(".ts") || /\.(test|test-util|d)\.ts$/u.test(entry.name)) continue;
    const { outputText } = ts.transpileModule(readFileSync(source, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: false },
    });
    mkdirSync(to, { recursive: true });
    writeFileSync(path.join(to, entry.name.replace(/\.ts$/u, ".js")), outputText);
  }
}

/** Unpacks commit `base`'s `src/` under `dir` and transpiles it into `to`. */
export function transpileCommit(base: string, dir: string, to: string): void {
  const root = path.join(dir, base);
  mkdirSync(root);
  execFileSync("bash", ["-c", `git archive ${base} src | tar -x -C '${root}'`]);
  transpileTree(path.join(root, "src"), to);
}

/** Transpiles a bench runner (`bench/*.ts`, importing nothing of the repository) into `to`, a `.mjs` file. */
export function transpileRunner(from: string, to: string): void {
  writeFileSync(
    to,
    ts.transpileModule(readFileSync(from, "utf8"), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } })
      .outputText,
  );
}

/** Prints the process's own peak RSS in MiB: `node -e HWM_MIB`. */
export const HWM_MIB = `process.stdout.write(String(Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(require("fs").readFileSync("/proc/self/status", "utf8"))[1]) / 1024))`;

/** Two transpiled trees and a runner in a fresh folder: commit `base`'s `src/` and this tree's. */
export interface Sides {
  /** The short commit id of the older side. */
  readonly base: string;
  /** The folder holding both trees, the runner and a `node_modules` link. */
  readonly dir: string;
  readonly sides: { readonly base: string; readonly ours: string };
  /** The transpiled runner, a `.mjs` file. */
  readonly runner: string;
}

/** Lays out the older commit `base` and this tree side by side, with `runner` (`bench/*.ts`) transpiled beside them. */
export function prepareSides(base: string, prefix: string, runner: string): Sides {
  const commit = execFileSync("git", ["rev-parse", "--short", base], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const sides = { base: path.join(dir, "base-js"), ours: path.join(dir, "ours-js") } as const;
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules")); // zod, for both trees
  transpileCommit(commit, dir, sides.base);
  transpileTree(path.resolve("src"), sides.ours);
  const out = path.join(dir, path.basename(runner).replace(/\.ts$/u, ".mjs"));
  transpileRunner(runner, out);
  return { base: commit, dir, sides, runner: out };
}
