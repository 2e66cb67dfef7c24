import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CocoonSetSchema } from "../cocoonset-types.js";
import { addIssue } from "./add-issue.js";
import { cocoonSet } from "./test-fixtures.js";

describe("addIssue", () => {
  it("hands zod the issue with its schema slot declared", () => {
    const received: unknown[] = [];
    addIssue({ addIssue: (issue) => received.push(issue) }, { code: "custom", path: ["a"], message: "m", input: 1 });
    expect(received).toHaveLength(1);
    expect(Object.keys(received[0] as object)).toEqual(["code", "path", "message", "input", "schema"]);
  });

  it("keeps the slot out of the issues a caller reads", () => {
    const issues = z
      .object({ n: z.number() })
      .superRefine((value, ctx) => addIssue(ctx, { code: "custom", path: ["n"], message: "odd", input: value.n }))
      .safeParse({ n: 1 }).error?.issues;
    expect(issues).toEqual([{ code: "custom", path: ["n"], message: "odd" }]);
    expect(issues?.map((issue) => Object.keys(issue))).toEqual([["code", "path", "message"]]);
  });

  it("leaves the CEL notice of a CocoonSet as it was", () => {
    const issues = CocoonSetSchema.safeParse(cocoonSet({ agent: { image: "a" }, hibernatePolicy: "sleep" })).error?.issues;
    expect(issues?.map((issue) => Object.keys(issue))).toEqual([
      ["code", "values", "path", "message"],
      ["code", "path", "message", "params"],
    ]);
  });
});
