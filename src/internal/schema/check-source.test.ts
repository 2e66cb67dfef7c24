import { stripTypeScriptTypes } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkSource } from "./check-source.js";
import { checkTag } from "./check-tag.js";

const options = { name: "accept", type: "unknown", imports: [], header: "// test", doc: ["Test."] };
const source = (schema: object) => checkSource(schema, options);
/** The generated source as JavaScript: its types stripped. */
const ts = (text: string): string => stripTypeScriptTypes(text);
const hasName = (value: { name?: string }) => value.name !== "";

describe("checkSource", () => {
  it("calls a tagged refinement's predicate, on a field when the tag names one", () => {
    const item = checkTag(z.looseObject({ name: z.string() }).refine(hasName), { predicate: "hasName" });
    const text = source(z.object({ items: z.array(item), tolerations: z.array(z.string()).optional() }));
    expect(text).toContain(
      'const isItemsItem: Check = (v) =>\n  isObject(v) &&\n  typeof v["name"] === "string" && hasName(v as Parameters<typeof hasName>[0]);',
    );
    expect(text).toContain('Array.isArray(raw["items"]) && (raw["items"] as unknown[]).every(isItemsItem)');
  });

  it("refuses what it cannot say as the schema does: an untagged refinement, a nested default, a catchall, a number", () => {
    expect(() => source(z.object({ a: z.string().max(1) }))).toThrow("value.a: refined without a checkTag naming its predicate");
    expect(() => source(z.object({ a: z.int().min(1).multipleOf(2) }))).toThrow("value.a: refined without a checkTag naming its predicate");
    expect(() => source(z.object({ a: z.object({ b: z.string().default("x") }) }))).toThrow(
      "value.a.b: a zod default is covered only on a top-level field",
    );
    expect(() => source(z.object({ a: z.object({}).catchall(z.string()) }))).toThrow(
      "value.a: a zod object is not covered by the generated check",
    );
    expect(() => source(z.object({ a: z.number() }))).toThrow("value.a: a zod number is not covered by the generated check");
  });

  it("says a strict object, a string's minimum length and an integer's lower bound as plain tests", async () => {
    const schema = z.strictObject({
      id: z.string().min(2),
      n: z.int().nonnegative().optional(),
      m: z.int().gt(3).optional(),
      s: z.strictObject({}),
    });
    const text = source(schema);
    expect(text).toContain('typeof raw["id"] === "string" && raw["id"].length >= 2');
    expect(text).toContain('(raw["n"] === undefined || Number.isSafeInteger(raw["n"]) && (raw["n"] as number) >= 0)');
    expect(text).toContain('(raw["m"] as number) > 3');
    expect(text).toContain('const KEYS: ReadonlySet<string> = new Set(["id","n","m","s"]);');
    const accept = (await import(`data:text/javascript,${encodeURIComponent(ts(text))}`)) as { accept: (raw: unknown) => unknown };
    const cases: unknown[] = [
      { id: "ab", s: {} },
      { id: "a", s: {} },
      { id: "ab", s: { x: 1 } },
      { id: "ab", s: {}, extra: 1 },
      { id: "ab", n: -1, s: {} },
      { id: "ab", n: 1.5, s: {} },
      { id: "ab", m: 3, s: {} },
      { id: "ab", m: 4, n: 0, s: {} },
      { id: "ab", n: 2 ** 53, s: {} },
    ];
    expect(cases.map((c) => accept.accept(c) !== undefined)).toEqual(cases.map((c) => schema.safeParse(c).success));
  });
});
