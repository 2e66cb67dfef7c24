/**
 * Transpiled copies of source trees, so a bench can run this tree's code and an older commit's
 * side by side as plain `node`, as a virtual kubelet would.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
