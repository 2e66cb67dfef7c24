import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkSource } from "./check-source.js";
import { checkTag } from "./check-tag.js";

const options = { name: "accept", type: "unknown", imports: [], header: "// test", doc: ["Test."] };
const source = (schema: object) => checkSource(schema, options);
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

  it("refuses what it cannot say as the schema does: an untagged refinement, a nested default, a strict object, a number", () => {
    expect(() => source(z.object({ a: z.string().min(1) }))).toThrow("value.a: refined without a checkTag naming its predicate");
    expect(() => source(z.object({ a: z.object({ b: z.string().default("x") }) }))).toThrow(
      "value.a.b: a zod default is covered only on a top-level field",
    );
    expect(() => source(z.object({ a: z.strictObject({}) }))).toThrow("value.a: a zod object is not covered by the generated check");
    expect(() => source(z.object({ a: z.number() }))).toThrow("value.a: a zod number is not covered by the generated check");
  });
});
