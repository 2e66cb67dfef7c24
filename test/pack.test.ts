import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; devDependencies: Record<string, string> };
const entryPoints = [".", "/meta", "/apis/v1", "/k8s", "/oci", "/testing"].map((sub) => (sub === "." ? pkg.name : pkg.name + sub));
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

// Installs the packed tarball the way a user would, into a fresh project outside this repository.
describe("the packed package, installed as a dependency", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "cocoon-pack-"));
    run("npm", ["pack", "--silent", "--pack-destination", dir], root);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
    if (tarball === undefined) throw new Error("npm pack produced no tarball");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const peers = [`zod@${pkg.devDependencies.zod}`, `@kubernetes/client-node@${pkg.devDependencies["@kubernetes/client-node"]}`, `@types/node@${pkg.devDependencies["@types/node"]}`, "@types/ws@8"];
    // @types/ws: client-node's own declarations import "ws" types; its users install them too.
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${tarball}`, ...peers], dir);
  }, 240_000);
  afterAll(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("type-checks an import of every entry point (NodeNext, strict) and runs it", () => {
    const imports = entryPoints.map((spec, i) => `import * as m${i} from "${spec}";`).join("\n");
    const uses = entryPoints.map((_, i) => `Object.keys(m${i}).length`).join(", ");
    writeFileSync(
      join(dir, "main.ts"),
      `${imports}\nimport { Annotation, quantityString } from "${pkg.name}/meta";\n` +
        `const key: string = Annotation.KeepSnapshotOnDelete;\nconst q: string = quantityString("1024Mi");\n` +
        `const crd = import.meta.resolve("${pkg.name}/crds/cocoonset.cocoonstack.io_cocoonsets.yaml");\n` +
        `console.log(JSON.stringify({ counts: [${uses}], key, q, crd: crd.endsWith(".yaml") }));\n`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, outDir: "out", skipLibCheck: false, types: ["node"] }, files: ["main.ts"] }),
    );
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "."], dir);
    const out = JSON.parse(run(process.execPath, ["out/main.js"], dir)) as { counts: number[]; key: string; q: string; crd: boolean };
    expect(out.counts.every((n) => n > 0)).toBe(true);
    expect(out).toMatchObject({ key: "vm.cocoonstack.io/keep-snapshot-on-delete", q: "1Gi", crd: true });
  }, 120_000);

  it("loads every entry point from plain CommonJS with require()", () => {
    const script = entryPoints.map((spec) => `Object.keys(require("${spec}")).length`).join(", ");
    writeFileSync(join(dir, "main.cjs"), `console.log(JSON.stringify([${script}, require("${pkg.name}/meta").Label.Role]));\n`);
    const out = JSON.parse(run(process.execPath, ["main.cjs"], dir)) as (number | string)[];
    expect(out.slice(0, -1).every((n) => typeof n === "number" && n > 0)).toBe(true);
    expect(out.at(-1)).toBe("cocoonset.cocoonstack.io/role");
  }, 60_000);
});
