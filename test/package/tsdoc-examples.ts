/**
 * The TSDoc `@example` blocks of every export of the package's entry points, read from the source
 * with the TypeScript compiler, and how each becomes a module a consumer could compile and run.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One `@example`: the export it documents, where it is written, and its code. */
export interface Example {
  /** The import path of the entry point that exports it, e.g. `@cocoonstack/cocoon-common/k8s`. */
  entry: string;
  name: string;
  /** Source file relative to the repository, and the line of the code's first line. */
  path: string;
  line: number;
  code: string;
}

/** The entry points of package.json `exports`, as import path → source file (`./meta` → `src/meta/index.ts`). */
function entrySources(root: string): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === "object" && target !== null ? (target as { types?: string }).types : undefined;
    if (types === undefined) continue;
    entries.set(
      subpath === "." ? pkg.name : `${pkg.name}${subpath.slice(1)}`,
      types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
    );
  }
  return entries;
}

/** Every exported name of every entry point, and every `@example` of an exported declaration (each once). */
export function readExamples(root: string): { examples: Example[]; exportsOf: Map<string, Set<string>> } {
  const entries = entrySources(root);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram(
    [...entries.values()].map((f) => join(root, f)),
    config?.options ?? {},
  );
  const checker = program.getTypeChecker();
  const examples: Example[] = [];
  const exportsOf = new Map<string, Set<string>>();
  const seen = new Set<ts.Node>();
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(join(root, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file}: not a module of the program`);
    const names = new Set<string>();
    exportsOf.set(entry, names);
    for (const exported of checker.getExportsOfModule(module)) {
      names.add(exported.name);
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const tag of (symbol.declarations ?? []).flatMap((d) => ts.getJSDocTags(d))) {
        if (tag.tagName.text !== "example" || seen.has(tag)) continue;
        seen.add(tag);
        const text = ts.getTextOfJSDocComment(tag.comment) ?? "";
        const code = /^```ts\n([\s\S]*?)\n```/m.exec(text)?.[1];
        if (code === undefined) throw new Error(`${exported.name}: an @example without a ts block`);
        const sf = tag.getSourceFile();
        const { line } = sf.getLineAndCharacterOfPosition(tag.getStart(sf));
        examples.push({ entry, name: exported.name, path: relative(root, sf.fileName), line: line + 3, code });
      }
    }
  }
  return { examples, exportsOf };
}

/** A compilable module of one example: its source, and the offset of the example's first line in it. */
export interface ExampleModule {
  source: string;
  firstLine: number;
}

/** A name, not a property (`a.name`, `a?.name`); a spread (`...name`) is a name. */
const IDENTIFIER = /(?<![\w$]|(?<!\.\.)\.)[A-Za-z_$][\w$]*/g;

/**
 * Wraps an example in `export default async function`, so its `await`s and `return`s are valid and
 * a runner can call it, and imports every name it uses: the package's exports (from its own entry
 * point first), then `others` (a module's value exports, e.g. client-node's `CoreV1Api`). The
 * example's own `import` lines move to the top. What its prose assumes is declared globally by
 * the preludes.
 */
export function toExampleModule(example: Example, exportsOf: Map<string, Set<string>>, others: Record<string, string[]>): ExampleModule {
  const lines = example.code.split("\n");
  const own = lines.filter((l) => l.startsWith("import "));
  const body = lines.map((l) => (l.startsWith("import ") ? "" : l));
  const stripped = body.join("\n").replace(/\/\/.*$/gm, "");
  const used = new Set([...stripped.matchAll(IDENTIFIER)].map((m) => m[0]));
  for (const l of own) for (const m of l.matchAll(IDENTIFIER)) used.delete(m[0]);
  const from = new Map<string, string[]>();
  const pick = (name: string) => {
    const entry = [example.entry, ...exportsOf.keys()].find((e) => exportsOf.get(e)?.has(name));
    const module = entry ?? Object.keys(others).find((m) => others[m]?.includes(name));
    if (module !== undefined) from.set(module, [...(from.get(module) ?? []), name]);
  };
  [...used].sort().forEach(pick);
  const imports = [...from].map(([module, names]) => `import { ${names.join(", ")} } from "${module}";`);
  const head = [...own, ...imports, "export default async function example() {"];
  return { source: [...head, ...body, "}", ""].join("\n"), firstLine: head.length + 1 };
}

/** The names a prelude declares (`declare const pod`, `declare function gcSnapshot`). */
export function preludeNames(prelude: string): string[] {
  return [...prelude.matchAll(/^declare (?:const|let|function) (\w+)/gm)].map((m) => m[1] ?? "");
}

/**
 * Why an example is compiled only, or undefined when it also runs. What an example awaits is a
 * cluster, a registry, a process or a timer; a prelude value without a run-time stand-in
 * (`clients`, `registry`, `core`, ...) only those provide. Names in strings, comments and object
 * keys do not count, nor the package's own exports, nor what the example declares itself.
 * `hostBound` names exports that read the machine's setup (a kubeconfig) a test machine lacks.
 */
export function compileOnly(
  example: Example,
  prelude: string[],
  standIns: string[],
  exported: Set<string>,
  hostBound: string[],
): string | undefined {
  const code = example.code.replace(/\/\/.*$/gm, "").replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  if (/\bawait\b/.test(code)) return "awaits";
  const names = new Set([...code.matchAll(/(?<![\w$]|(?<!\.\.)\.)([A-Za-z_$][\w$]*)(?!\s*:[^:])/g)].map((m) => m[1]));
  for (const [, local] of code.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g)) names.delete(local);
  const missing = [
    ...prelude.filter((name) => names.has(name) && !standIns.includes(name) && !exported.has(name)),
    ...hostBound.filter((name) => names.has(name)),
  ];
  return missing.length > 0 ? `needs ${missing.join(", ")}` : undefined;
}
