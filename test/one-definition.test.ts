/**
 * A zod schema is the one definition of a wire object: its Go table (field order, omitempty), its
 * TypeScript types and its generated fast check are derived from it. Adding a field to the schema
 * is the only edit, and all three follow.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { goAlways, goPointer, goTag, goTagOf } from "../src/apis/v1/go-tags.js";
import {
  BOOL,
  INT32,
  INT64_SAFE,
  QUANTITY,
  STRING,
  always,
  encodeGo,
  goTypeOf as goTypeOfTagged,
  map,
  oe,
  ptr,
  slice,
  struct,
  type GoField,
} from "../src/internal/go/index.js";
import { checkSource } from "../src/internal/schema/check-source.js";
import type { AgentSpecInput, VMOptionsInput } from "../src/apis/v1/index.js";
import type { AgentSpecLike, Loose, VMOptionsLike } from "../src/meta/index.js";

const goTypeOf = (schema: object) => goTypeOfTagged(schema, goTagOf);

/** A fixture wire object; `extra` is spliced in after `name`, where a Go struct would declare it. */
const widget = <Extra extends z.ZodRawShape>(extra: Extra) =>
  z.looseObject({
    name: goTag(z.string(), { always: true }),
    ...extra,
    replicas: goTag(z.int().optional(), { type: INT32 }),
    labels: z.record(z.string(), z.string()).optional(),
  });
const Before = widget({});
const After = widget({ paused: goTag(z.boolean().optional(), { ptr: true }), zone: z.string().optional() });

/** Imports the check generated from `schema`, as the generator would write it. */
async function generatedCheck(schema: object): Promise<(raw: unknown) => unknown> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "one-definition-")), "check.generated.ts");
  const header = "// generated for the test";
  writeFileSync(file, checkSource(schema, { name: "accept", type: "Record<string, unknown>", imports: [], header, doc: ["Test."] }));
  return ((await import(pathToFileURL(file).href)) as { accept: (raw: unknown) => unknown }).accept;
}

const encode = (schema: object, value: unknown) => encodeGo(goTypeOf(schema), value, () => undefined, { unknownFields: "refuse" });

describe("a field added to a schema", () => {
  it("appears in the Go table in declaration order, omitempty honoured, a pointer's false kept", () => {
    expect(goTypeOf(After)).toEqual(
      struct(always("name", STRING), oe("paused", ptr(BOOL)), oe("zone", STRING), oe("replicas", INT32), oe("labels", map(STRING))),
    );
    const value = { labels: { b: "2", a: "1" }, zone: "eu-1", replicas: 3, paused: false, name: "w" };
    expect(encode(After, value)).toBe('{"name":"w","paused":false,"zone":"eu-1","replicas":3,"labels":{"a":"1","b":"2"}}');
    expect(encode(After, { name: "", zone: "" })).toBe('{"name":""}');
    expect(() => encode(Before, value)).toThrow("value.zone: not a field of the Go struct");
  });

  it("appears in the input and output types (checked by tsc)", () => {
    expectTypeOf<z.input<typeof After>["zone"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<z.output<typeof After>["paused"]>().toEqualTypeOf<boolean | undefined>();
    // Before the addition the key falls to the loose object's index signature.
    expectTypeOf<z.output<typeof Before>["zone"]>().toBeUnknown();
    const input: z.input<typeof After> = { name: "w", zone: "eu-1", paused: true };
    expect(After.parse(input).zone).toBe("eu-1");
  });

  it("appears in the loose *Like input type derived from it (checked by tsc)", () => {
    // A reader's input type is `Loose` of the schema's input, as each `*Like` of ./meta is.
    type WidgetLike<S extends z.ZodType> = Loose<z.input<S>>;
    expectTypeOf<WidgetLike<typeof After>["zone"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WidgetLike<typeof After>["paused"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<WidgetLike<typeof Before>["zone"]>().toBeUnknown();
    expectTypeOf<{ name: string; labels: { a: string } }>().toExtend<WidgetLike<typeof After>>();
    const reader = (w: WidgetLike<typeof After>) => w.zone ?? "";
    expect(reader({ name: "w", zone: "eu-1" })).toBe("eu-1");
    // The package's own *Like types are the same derivation of the real schemas.
    expectTypeOf<VMOptionsLike>().toEqualTypeOf<Loose<VMOptionsInput>>();
    expectTypeOf<AgentSpecLike>().toEqualTypeOf<Loose<AgentSpecInput>>();
  });

  it("is checked by the generated check, with the schema's verdict", async () => {
    const [before, after] = [await generatedCheck(Before), await generatedCheck(After)];
    const wrongZone = { name: "w", zone: 7 };
    expect([before(wrongZone) !== undefined, after(wrongZone) !== undefined]).toEqual([true, false]);
    expect([Before.safeParse(wrongZone).success, After.safeParse(wrongZone).success]).toEqual([true, false]);
    expect(after({ name: "w", zone: "eu-1", paused: true, replicas: 2 })).toEqual({ name: "w", zone: "eu-1", paused: true, replicas: 2 });
    expect(after({ name: "w", replicas: 1.5 })).toBeUndefined();
  });
});

/**
 * A fixture kind shaped like a CocoonSet: TypeMeta in the schema's order (`apiVersion` first) but
 * Go's (`kind` first) in the tag, metadata with a Go-only field, a spec field written always.
 * `extra` is spliced into the agent.
 */
const kindLike = <Extra extends z.ZodRawShape>(extra: Extra) =>
  goTag(
    z.object({
      apiVersion: z.literal("example.io/v1"),
      kind: z.literal("Widget"),
      metadata: goTag(z.looseObject({ name: z.string().optional() }), { fields: ["name", oe("selfLink", STRING)] }),
      spec: z.object({ agent: goAlways(z.object({ image: goAlways(z.string()), ...extra })) }).optional(),
    }),
    { fields: ["kind", "apiVersion", "metadata", "spec"] },
  );
const KindBefore = kindLike({});
const KindAfter = kindLike({ storage: goPointer(goTag(z.string(), { type: QUANTITY }).optional()) });

describe("a field added to a CocoonSet-like schema", () => {
  it("appears in its Go table, among Go's field order and Go-only fields", () => {
    const agent = (...fields: ReturnType<typeof oe>[]) =>
      struct(
        oe("kind", STRING),
        oe("apiVersion", STRING),
        oe("metadata", struct(oe("name", STRING), oe("selfLink", STRING))),
        oe("spec", struct(always("agent", struct(always("image", STRING), ...fields)))),
      );
    expect(goTypeOf(KindBefore)).toEqual(agent());
    expect(goTypeOf(KindAfter)).toEqual(agent(oe("storage", ptr(QUANTITY))));
    const value = { apiVersion: "example.io/v1", kind: "Widget", metadata: { name: "w" }, spec: { agent: { storage: "1Gi", image: "" } } };
    const withQuantity = (schema: object) =>
      encodeGo(goTypeOf(schema), value, () => undefined, { unknownFields: "refuse", quantity: (q) => `${q}` });
    expect(withQuantity(KindAfter)).toBe(
      '{"kind":"Widget","apiVersion":"example.io/v1","metadata":{"name":"w"},"spec":{"agent":{"image":"","storage":"1Gi"}}}',
    );
    expect(() => withQuantity(KindBefore)).toThrow("value.spec.agent.storage: not a field of the Go struct");
  });

  it("appears in the input and output types (checked by tsc)", () => {
    type Agent<T> = T extends { spec?: { agent: infer A } | undefined } ? A : never;
    expectTypeOf<Agent<z.input<typeof KindAfter>>>().toEqualTypeOf<{ image: string; storage?: string | undefined }>();
    expectTypeOf<Agent<z.input<typeof KindBefore>>>().toEqualTypeOf<{ image: string }>();
    expectTypeOf<keyof Agent<z.output<typeof KindAfter>>>().toEqualTypeOf<"image" | "storage">();
    // And in the loose input a reader declares from it: a mode of any string, a readonly list.
    expectTypeOf<Agent<Loose<z.input<typeof KindAfter>>>>().toEqualTypeOf<{ image: string; storage?: string | undefined }>();
    expectTypeOf<keyof Agent<Loose<z.input<typeof KindBefore>>>>().toEqualTypeOf<"image">();
  });

  it("must be named in a tag that gives Go's field order, and a Go-only field must not shadow it", () => {
    const top = (fields: readonly (string | GoField)[]) => goTag(z.object({ kind: z.string(), spec: z.string() }), { fields });
    expect(() => goTypeOf(top(["kind"]))).toThrow("value: Go's field order leaves out spec");
    expect(() => goTypeOf(top(["spec", "kind", "status"]))).toThrow("value.status: not a field of the shape, or named twice");
    expect(() => goTypeOf(top(["spec", "kind", oe("kind", STRING)]))).toThrow("value.kind: a Go-only field the shape has");
    expect(goTypeOf(top(["spec", oe("status", BOOL), "kind"]))).toEqual(struct(oe("spec", STRING), oe("status", BOOL), oe("kind", STRING)));
  });
});

describe("goTypeOf", () => {
  it("derives a slice of structs, a record, and refuses a construct with no Go type unless tagged", () => {
    expect(goTypeOf(z.array(z.object({ weight: goTag(z.int(), { always: true }) })))).toEqual(slice(struct(always("weight", INT64_SAFE))));
    expect(() => goTypeOf(z.union([z.string(), z.boolean()]))).toThrow("value: options with different Go types (string, bool)");
    expect(() => goTypeOf(z.number())).toThrow("value: a zod number has no Go type; tag it with goTag(schema, { type })");
    expect(goTypeOf(goTag(z.number(), { type: INT32 }))).toEqual(INT32);
    // A tag stays with the schemas derived from the tagged one.
    expect(goTypeOf(z.object({ port: goTag(z.number(), { type: INT32, always: true }).min(0).describe("Port.") }))).toEqual(
      struct(always("port", INT32)),
    );
    // The options of a union of objects merge into one struct, in the order they name their fields.
    const either = z.union([z.object({ b: z.string() }), z.object({ a: z.string(), b: z.string() })]);
    expect(goTypeOf(either)).toEqual(struct(oe("b", STRING), oe("a", STRING)));
  });
});
