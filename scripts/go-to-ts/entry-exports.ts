/**
 * What each package entry point exports, as TypeScript sees it: whether each name is a value, a
 * type or both, and the source file that declares it. Entry points come from package.json
 * `exports`, so a subpath added there (`./oci`, `./snapshot`) is covered without editing this file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** One exported name of an entry point. */
export interface ExportedName {
  readonly value: boolean;
  readonly type: boolean;
  /** Repository-relative path of the declaring file, e.g. `src/meta/hibernate.ts`. */
  readonly file: string;
}

/** An entry point: its package.json subpath, its barrel and what it exports. */
export interface EntryPoint {
  readonly subpath: string;
  readonly source: string;
  readonly names: ReadonlyMap<string, ExportedName>;
}

type ExportTarget = string | { readonly default?: string };

/** package.json subpaths that lead to our own code (not `./crds/*` or `./package.json`), with their barrels. */
export function entrySources(root: string): Map<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { exports: Record<string, ExportTarget> };
  const out = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const built = typeof target === "string" ? target : target.default;
    if (built?.startsWith("./dist/") !== true) continue;
    out.set(subpath, built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
  }
  return out;
}

/** Compiles the barrels once and lists every entry point's exports. */
export function entryPoints(root: string): EntryPoint[] {
  const sources = entrySources(root);
  const configPath = ts.findConfigFile(root, (file) => ts.sys.fileExists(file), "tsconfig.json");
  if (configPath === undefined) throw new Error(`no tsconfig.json in ${root}`);
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, (file) => ts.sys.readFile(file)).config, ts.sys, root);
  const program = ts.createProgram(
    [...sources.values()].map((s) => path.join(root, s)),
    config.options,
  );
  const checker = program.getTypeChecker();
  return [...sources].map(([subpath, source]) => {
    const file = program.getSourceFile(path.join(root, source));
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${source} (package.json exports "${subpath}") does not compile to a module`);
    const names = new Map<string, ExportedName>();
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      names.set(symbol.name, {
        value: (target.flags & ts.SymbolFlags.Value) !== 0,
        type: (target.flags & ts.SymbolFlags.Type) !== 0,
        file: declaration === undefined ? "" : path.relative(root, declaration.getSourceFile().fileName),
      });
    }
    return { subpath, source, names };
  });
}
