import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as apis from "../index.js";
import { withSharedFailureShape } from "./safe-parse.js";

setFlagsFromString("--allow-natives-syntax");
// Compiled after the flag is set, so the parser accepts V8's intrinsics.
/* eslint-disable @typescript-eslint/no-implied-eval */
const haveSameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;
const hasFastProperties = new Function("a", "return %HasFastProperties(a)") as (a: object) => boolean;
/* eslint-enable @typescript-eslint/no-implied-eval */

/** zod's own `safeParse`, which the schemas' prototypes carry and ours shadows. */
const zodSafeParse = (schema: z.ZodType, data: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) =>
  z.safeParse(schema, data, params);

const Toolbox = withSharedFailureShape(
  z.object({ name: z.string().min(1), os: z.enum(["linux", "windows"]), port: z.number().int().optional() }).strict(),
);

const invalidInputs: readonly unknown[] = [
  undefined,
  null,
  "browser",
  { name: "", os: "beos" },
  { name: 7, os: "linux", port: 1.5, extra: true },
  { os: "windows", port: "5900" },
];

describe("withSharedFailureShape", () => {
  it.each(invalidInputs.map((input) => [input]))("fails on %j exactly as zod's own safeParse", (input) => {
    const ours = Toolbox.safeParse(input);
    const theirs = zodSafeParse(Toolbox, input);
    expect(ours.success).toBe(false);
    expect(Object.keys(ours)).toEqual(["success", "error"]);
    expect(ours.error).toBeInstanceOf(z.ZodError);
    expect(ours.error).toBeInstanceOf(Error);
    expect(ours.error?.issues).toEqual(theirs.error?.issues);
    expect(ours.error?.message).toBe(theirs.error?.message);
    expect({ ...ours }).toEqual({ ...theirs });
  });

  it("returns the same data as zod on valid input", () => {
    const input = { name: "browser", os: "linux", port: 5900 };
    const ours = Toolbox.safeParse(input);
    expect(ours).toEqual({ success: true, data: input });
    expect(ours).toEqual(zodSafeParse(Toolbox, input));
  });

  it("builds the error once, on its first read", () => {
    const result = Toolbox.safeParse({ name: "", os: "linux" });
    const first = result.error;
    expect(result.error).toBe(first);
    expect(first?.issues).toHaveLength(1);
  });

  it("runs the parse's own error map when the error is read", () => {
    const result = Toolbox.safeParse({ name: "x", os: "beos" }, { error: (issue) => `bad ${issue.code}` });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(["bad invalid_value"]);
  });

  it("takes a replacement error, as zod's result does", () => {
    const result = Toolbox.safeParse(null);
    const replacement = new z.ZodError([]) as z.ZodError<z.output<typeof Toolbox>>;
    result.error = replacement;
    expect(result.error).toBe(replacement);
  });

  it("throws zod's async error on an async check, as zod does", () => {
    const Async = withSharedFailureShape(z.string().refine(async () => true));
    expect(() => Async.safeParse("x")).toThrow(z.core.$ZodAsyncError);
    expect(() => zodSafeParse(Async, "x")).toThrow(z.core.$ZodAsyncError);
  });

  it("throws what a throwing check throws, as zod does, and leaves no rejection behind", () => {
    const boom = new RangeError("boom");
    const Throwing = withSharedFailureShape(
      z.string().refine(() => {
        throw boom;
      }),
    );
    expect(() => Throwing.safeParse("x")).toThrow(boom);
    expect(() => zodSafeParse(Throwing, "x")).toThrow(boom);
  });

  it("goes through the schema's Standard Schema validate, not zod's safeParse, without params", () => {
    const schema = z.string();
    const calls: unknown[] = [];
    const { validate } = schema["~standard"];
    schema["~standard"] = { ...schema["~standard"], validate: (value) => (calls.push(value), validate(value)) };
    withSharedFailureShape(schema);
    expect([schema.safeParse(1).success, schema.safeParse("a").success, schema.safeParse(2, { reportInput: true }).success]).toEqual([
      false,
      true,
      false,
    ]);
    expect(calls).toEqual([1, "a"]);
  });

  it("gives every failure one fast hidden class, where zod's are dictionaries", () => {
    const [a, b] = [Toolbox.safeParse(null), Toolbox.safeParse({ name: 1, os: "beos" })];
    expect([haveSameMap(a, b), hasFastProperties(a), hasFastProperties(b)]).toEqual([true, true, true]);
    expect(hasFastProperties(zodSafeParse(Toolbox, null))).toBe(false);
  });

  it("returns the schema it was given", () => {
    const schema = z.string();
    expect(withSharedFailureShape(schema)).toBe(schema);
  });

  it("is installed on every schema ./apis/v1 exports", () => {
    const exports = Object.entries(apis);
    const schemas = exports.filter(([, value]) => value instanceof z.ZodType);
    expect(schemas.map(([name]) => name)).toEqual(exports.map(([name]) => name).filter((name) => name.endsWith("Schema")));
    expect(schemas.length).toBeGreaterThan(30);
    expect(schemas.filter(([, schema]) => !Object.hasOwn(schema as object, "safeParse")).map(([name]) => name)).toEqual([]);
  });
});
