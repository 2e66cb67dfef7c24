import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumer, root, run, tsc, type Consumer } from "./consumer.js";
import { compileOnly, preludeNames, readExamples, toExampleModule } from "./tsdoc-examples.js";

const { examples, exportsOf } = readExamples(root);
const file = (i: number) => `examples/${String(i).padStart(3, "0")}-${examples[i]?.name ?? ""}.ts`;

const fixtures = join(root, "test/package/fixtures");
const prelude = ["doc-prelude.d.ts", "example-prelude.d.ts"].flatMap((f) => preludeNames(readFileSync(join(fixtures, f), "utf8")));
const { globals } = (await import(join(fixtures, "example-globals.mjs"))) as { globals: () => Record<string, unknown> };
const exported = new Set([...exportsOf.values()].flatMap((names) => [...names]));
const why = examples.map((example) =>
  compileOnly(example, prelude, Object.keys(globals()), exported, ["loadKubeConfig", "inClusterRequester"]),
);

// Every @example of every export, compiled against the packed package in a fresh project as a
// reader would paste it (strict, nodenext, no skipLibCheck), and run when it needs no cluster.
describe("the @example of every export", () => {
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    consumer = await createConsumer("module");
  }, 240_000);
  afterAll(() => consumer?.dispose());

  it("finds the examples it checks", () => {
    expect(examples.length).toBeGreaterThanOrEqual(130);
    const entries = new Set(examples.map((e) => e.entry));
    // ./meta and ./apis/v1 re-export into the root: each is counted there. ./kubelet types its functions itself.
    expect(entries.size).toBe(exportsOf.size - 2);
  });

  it("every example compiles, and every one that needs no cluster, registry or process runs", async () => {
    const dir = consumer?.dir ?? "";
    mkdirSync(join(dir, "examples"), { recursive: true });
    const clientNode = Object.keys(await import("@kubernetes/client-node"));
    const others = { "@kubernetes/client-node": clientNode };
    const firstLines = examples.map((example, i) => {
      const { source, firstLine } = toExampleModule(example, exportsOf, others);
      writeFileSync(join(dir, file(i)), source);
      return firstLine;
    });
    copyFileSync(join(root, "test/package/fixtures/doc-prelude.d.ts"), join(dir, "examples/doc-prelude.d.ts"));
    copyFileSync(join(root, "test/package/fixtures/example-prelude.d.ts"), join(dir, "examples/example-prelude.d.ts"));
    copyFileSync(join(root, "test/package/fixtures/example-globals.mjs"), join(dir, "example-globals.mjs"));
    copyFileSync(join(root, "test/package/fixtures/run-examples.mjs"), join(dir, "run-examples.mjs"));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", target: "es2022", lib: ["es2023"], strict: true, outDir: "out", types: ["node"] },
        files: ["examples/doc-prelude.d.ts", "examples/example-prelude.d.ts", ...examples.map((_, i) => file(i))],
      }),
    );
    const errors = await tsc(dir, "-p", ".", "--pretty", "false").then(
      () => [],
      (err: unknown) =>
        [...(err as Error).message.matchAll(/^examples\/(\d+)-[^(]*\((\d+),\d+\): error (TS\d+: .*)$/gm)].map(
          ([, n = "", line = "0", text]) => {
            const example = examples[Number(n)];
            const at = Number(line) - (firstLines[Number(n)] ?? 0);
            return example === undefined || at < 0
              ? `examples/${n} (imports): ${text}`
              : `${example.path}:${example.line + at} (${example.name}): ${text}`;
          },
        ),
    );
    expect(errors).toEqual([]);

    // An example that shows a throw (`// throws: MESSAGE`) must throw exactly that.
    const runs = examples.flatMap((example, i) =>
      why[i] === undefined ? [{ example, out: file(i).replace(/^examples\/(.*)\.ts$/, "out/$1.js") }] : [],
    );
    expect(runs.length).toBeGreaterThanOrEqual(60);
    await run(process.execPath, ["run-examples.mjs", ...runs.map((r) => r.out)], dir);
    const outcomes = JSON.parse(readFileSync(join(dir, "examples-run.json"), "utf8")) as Record<string, string | null>;
    const wrong = runs.flatMap(({ example, out }) => {
      const expected = /\/\/ throws: (.*)$/m.exec(example.code)?.[1] ?? null;
      const got = outcomes[out];
      return got === expected
        ? []
        : [`${example.path}:${example.line} (${example.name}): ${got === null ? "did not throw" : `threw ${got}`}`];
    });
    expect(wrong).toEqual([]);
  }, 240_000);
});
