import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumer, linkDevPackage, root, run, tsc, type Consumer } from "./consumer.js";
import { readDocs, toModules, type Origin } from "./doc-blocks.js";

const docs = readDocs(root);
const readme = docs.find((d) => d.path === "README.md");

// Every TypeScript block of the README and the guides, compiled against the packed package in a
// fresh project, as a reader would paste them (strict, nodenext, no skipLibCheck).
describe("the TypeScript in the README and the guides", () => {
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    consumer = await createConsumer("module");
    linkDevPackage(consumer.dir, "vitest"); // the testing guide's blocks are vitest files
  }, 240_000);
  afterAll(() => consumer?.dispose());

  it("finds the blocks it checks", () => {
    const counts = Object.fromEntries(docs.map((d) => [d.path, d.blocks.filter((b) => b.lang === "ts").length]));
    expect(counts["README.md"]).toBeGreaterThanOrEqual(4);
    expect(counts["docs/guides/writing-a-controller.md"]).toBeGreaterThanOrEqual(9);
  });

  it("the README's first example runs as shown, printing the output block below it", async () => {
    const dir = consumer?.dir ?? "";
    const [example, output] = readme?.blocks.filter((b) => b.lang === "ts" || b.lang === "text") ?? [];
    expect([example?.lang, output?.lang]).toEqual(["ts", "text"]);
    expect(example?.text.split("\n").length).toBeLessThanOrEqual(15);
    writeFileSync(join(dir, "example.ts"), example?.text ?? "");
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", target: "es2022", strict: true, outDir: "out", types: ["node"] },
        files: ["example.ts"],
      }),
    );
    await tsc(dir, "-p", ".");
    expect(await run(process.execPath, ["out/example.js"], dir)).toBe(`${output?.text ?? ""}\n`);
  }, 120_000);

  it("every block compiles: a document is one program, or one file per block that names its file", async () => {
    const dir = consumer?.dir ?? "";
    mkdirSync(join(dir, "docs"), { recursive: true });
    const origins = new Map<string, (line: number) => Origin | undefined>();
    for (const doc of docs) {
      toModules(doc).forEach(({ source, origin }, i) => {
        const file = `docs/${basename(doc.path, ".md")}-${i}.ts`;
        writeFileSync(join(dir, file), source);
        origins.set(file, origin);
      });
    }
    copyFileSync(join(root, "test/package/fixtures/doc-prelude.d.ts"), join(dir, "docs/prelude.d.ts"));
    const files = ["docs/prelude.d.ts", ...origins.keys()];
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", target: "es2022", lib: ["es2023"], strict: true, noEmit: true, types: ["node"] },
        files,
      }),
    );
    const errors = await tsc(dir, "-p", ".", "--pretty", "false").then(
      () => [],
      (err: unknown) =>
        [...(err as Error).message.matchAll(/^(docs\/[^(]+)\((\d+),\d+\): error (TS\d+: .*)$/gm)].map(([, file = "", line = "0", text]) => {
          const at = origins.get(file)?.(Number(line));
          return at === undefined ? `${file}:${line} (prelude): ${text}` : `${at.path}:${at.line}: ${text}`;
        }),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
