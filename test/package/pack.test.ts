import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createConsumer, entryPoints, pkg, root, run, tsc, type Consumer } from "./consumer.js";

const meta = `${pkg.name}/meta`;
const crd = "crds/cocoonset.cocoonstack.io_cocoonsets.yaml";
const expected = { key: "vm.cocoonstack.io/keep-snapshot-on-delete", q: "1Gi", role: "cocoonset.cocoonstack.io/role" };
const node = (dir: string, file: string) => run(process.execPath, [file], dir);
const tsconfig = (dir: string, compilerOptions: Record<string, unknown>, files: string[]) =>
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "es2022", strict: true, skipLibCheck: false, types: ["node"], ...compilerOptions },
      files,
    }),
  );

describe("the published file list", () => {
  it("holds the built entry points, the CRDs, the ClusterRoles, the docs of the package page and nothing else", () => {
    const { files } = inject("packed");
    const entries = Object.values(pkg.exports).flatMap((target) =>
      typeof target === "string" ? [] : Object.values(target as Record<string, string>),
    );
    for (const file of entries) expect(files).toContain(file.slice(2));
    expect(files).toEqual(expect.arrayContaining(["CHANGELOG.md", "LICENSE", "README.md", "package.json", "dist/cli/main.js", crd]));
    const allowed = [
      /^dist\/.+\.(js|d\.ts)$/,
      /^crds\/[^/]+\.yaml$/,
      /^rbac\/[^/]+\.clusterrole\.yaml$/,
      /^(CHANGELOG\.md|LICENSE|README\.md|package\.json)$/,
    ];
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    expect(files.filter((f) => f.startsWith("crds/"))).toHaveLength(2);
    expect(files.filter((f) => f.startsWith("rbac/")).sort()).toEqual([
      "rbac/cocoon-kubelet.clusterrole.yaml",
      "rbac/cocoon-operator.clusterrole.yaml",
    ]);
  });
});

describe("the packed package in fresh projects", () => {
  let esm: Consumer | undefined;
  let cjs: Consumer | undefined;
  beforeAll(async () => {
    [esm, cjs] = await Promise.all([createConsumer("module", ["esbuild@0"]), createConsumer("commonjs")]);
  }, 240_000);
  afterAll(() => {
    esm?.dispose();
    cjs?.dispose();
  });

  // One program for both module systems: only how it resolves the CRD file differs.
  const program = (resolve: string) =>
    entryPoints.map((spec, i) => `import * as m${i} from "${spec}";`).join("\n") +
    `\nimport { Annotation, Label, quantityString } from "${meta}";\n` +
    `const counts = [${entryPoints.map((_, i) => `Object.keys(m${i}).length`).join(", ")}];\n` +
    `const crd = ${resolve}("${pkg.name}/${crd}");\n` +
    `console.log(JSON.stringify({ counts, key: Annotation.KeepSnapshotOnDelete, q: quantityString("1024Mi"), role: Label.Role, crd: crd.endsWith(".yaml") }));\n`;

  it.each([
    ["ESM", "import.meta.resolve", () => esm, "import"],
    ["CommonJS", "require.resolve", () => cjs, "require"],
  ] as const)(
    "%s (nodenext, strict): type-checks an import of every entry point and runs it",
    async (_kind, resolve, consumer, loads) => {
      const dir = consumer()?.dir ?? "";
      writeFileSync(join(dir, "main.ts"), program(resolve));
      tsconfig(dir, { module: "nodenext", moduleResolution: "nodenext", outDir: "out" }, ["main.ts"]);
      await tsc(dir, "-p", ".");
      // CommonJS output loads the ESM-only package with require(esm).
      expect(readFileSync(join(dir, "out/main.js"), "utf8")).toContain(loads === "require" ? `require("${meta}")` : `from "${meta}"`);
      const out = JSON.parse(await node(dir, "out/main.js")) as { counts: number[] };
      expect(out.counts.filter((n) => n === 0)).toEqual([]);
      expect(out).toMatchObject({ ...expected, crd: true });
    },
    120_000,
  );

  it("bundler (moduleResolution bundler, esbuild): type-checks, bundles ./meta alone and runs it", async () => {
    const dir = esm?.dir ?? "";
    writeFileSync(
      join(dir, "bundled.ts"),
      `import { Annotation, Label, quantityString } from "${meta}";\n` +
        `console.log(JSON.stringify({ key: Annotation.KeepSnapshotOnDelete, q: quantityString("1024Mi"), role: Label.Role }));\n`,
    );
    tsconfig(dir, { module: "esnext", moduleResolution: "bundler", noEmit: true }, ["bundled.ts"]);
    await tsc(dir, "-p", ".");
    await run(
      process.execPath,
      [join(dir, "node_modules/esbuild/bin/esbuild"), "bundled.ts", "--bundle", "--platform=node", "--format=esm", "--outfile=bundle.mjs"],
      dir,
    );
    const bundle = readFileSync(join(dir, "bundle.mjs"), "utf8");
    // ./meta loads nothing at run time: neither zod nor client-node may end up in its bundle.
    expect(bundle).not.toMatch(/node_modules\/(zod|@kubernetes)\//);
    expect(JSON.parse(await node(dir, "bundle.mjs"))).toEqual(expected);
  }, 120_000);
});

describe("the package page", () => {
  it("links only to absolute URLs, so every link works on npm", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "");
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => !t.startsWith("https://"))).toEqual([]);
  });
});
