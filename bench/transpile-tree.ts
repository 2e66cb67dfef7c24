/**
 * Runnable copies of source trees, so a bench can run this tree's code and an older commit's side
 * by side as plain `node`, as a virtual kubelet would: transpiled file by file, or bundled as the
 * package is published.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "tsup";
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

/** Unpacks commit `base`'s `src/` under `dir`; returns the unpacked `src` folder. */
export function unpackCommit(base: string, dir: string): string {
  const root = path.join(dir, base);
  mkdirSync(root);
  execFileSync("bash", ["-c", `git archive ${base} src | tar -x -C '${root}'`]);
  return path.join(root, "src");
}

/** How tsup builds a side, as tsup.config.ts builds `dist`. */
const PUBLISHED = { format: ["esm"], splitting: true, treeshake: true, target: "node20" } as const;

/**
 * Builds `src`'s `./oci` and `./snapshot` into `to` as the package is published: tsup with
 * tsup.config.ts's options, package.json's dependencies and peers left external, and the Node
 * check (when `src` has one) built on its own and imported first by each entry, as that config does.
 */
export async function bundleTree(src: string, to: string): Promise<void> {
  const entry = { "oci/index": path.join(src, "oci/index.ts"), "snapshot/index": path.join(src, "snapshot/index.ts") };
  const check = path.join(src, "internal/node-check.ts");
  const checked = existsSync(check);
  await build({
    ...PUBLISHED,
    format: [...PUBLISHED.format],
    config: false,
    entry: checked ? { ...entry, "internal/node-check": check } : entry,
    outDir: to,
    dts: false,
    sourcemap: false,
    silent: true,
  });
  if (!checked) return;
  for (const name of Object.keys(entry)) {
    const file = path.join(to, `${name}.js`);
    writeFileSync(file, `import "${"../".repeat(name.split("/").length - 1)}internal/node-check.js";\n${readFileSync(file, "utf8")}`);
  }
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

/** How a side's `src/` is made runnable: bundled as published (tsup), or transpiled file by file. */
export type Form = "bundled" | "transpiled";

/** What each form runs, for a bench's header. */
export const FORM_METHOD: Readonly<Record<Form, string>> = {
  bundled: `bundled as published: tsup ${(JSON.parse(readFileSync(path.resolve("node_modules/tsup/package.json"), "utf8")) as { version: string }).version}, entries \`./oci\` and \`./snapshot\`, ESM, code splitting, tree-shaking, target node20, dependencies external`,
  transpiled: `transpiled file by file: TypeScript ${ts.version} \`transpileModule\`, ES2023 modules, one per source file`,
};

/** Two runnable trees and a runner in a fresh folder: commit `base`'s `src/` and this tree's. */
export interface Sides {
  /** The short commit id of the older side. */
  readonly base: string;
  readonly form: Form;
  /** The folder holding both trees, the runner and a `node_modules` link. */
  readonly dir: string;
  readonly sides: { readonly base: string; readonly ours: string };
  /** The transpiled runner, a `.mjs` file. */
  readonly runner: string;
}

/**
 * Lays out the older commit `base` and this tree side by side in `form`, with `runner`
 * (`bench/*.ts`) transpiled beside them. A bundled side holds `./oci` and `./snapshot` only.
 */
export async function prepareSides(base: string, prefix: string, runner: string, form: Form = "transpiled"): Promise<Sides> {
  const commit = execFileSync("git", ["rev-parse", "--short", base], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const sides = { base: path.join(dir, "base-js"), ours: path.join(dir, "ours-js") } as const;
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules")); // zod, for both trees
  const src = { base: unpackCommit(commit, dir), ours: path.resolve("src") };
  for (const side of ["base", "ours"] as const) {
    if (form === "bundled") await bundleTree(src[side], sides[side]);
    else transpileTree(src[side], sides[side]);
  }
  const out = path.join(dir, path.basename(runner).replace(/\.ts$/u, ".mjs"));
  transpileRunner(runner, out);
  return { base: commit, form, dir, sides, runner: out };
}
