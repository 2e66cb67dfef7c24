import { describe, expect, it } from "vitest";
import { CocoonHibernationListSchema, CocoonHibernationSchema } from "./cocoonhibernation-types.js";
import { pathsOf } from "./internal/test-fixtures.js";

const hibernation = (spec: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonHibernation",
  metadata: { name: "nap", namespace: "default" },
  spec,
  ...extra,
});

describe("CocoonHibernationSchema", () => {
  it("parses a valid object without adding defaults", () => {
    const input = hibernation({ podRef: { name: "demo-0" }, desire: "Hibernate" });
    expect(CocoonHibernationSchema.parse(input)).toEqual(input);
  });

  it.each([
    ["desire missing", { podRef: { name: "p" } }, ["spec.desire", ""]],
    ["desire lower-case", { podRef: { name: "p" }, desire: "wake" }, ["spec.desire", ""]],
    ["podRef missing", { desire: "Wake" }, ["spec.podRef", ""]],
    ["podRef.name missing", { podRef: {}, desire: "Wake" }, ["spec.podRef.name", ""]],
    ["podRef.name empty", { podRef: { name: "" }, desire: "Wake" }, ["spec.podRef.name"]],
  ])("rejects %s", (_name, spec, paths) => {
    // "" is the apiserver's root notice: a blocking error (type, required, enum) skips the CEL rules.
    expect(pathsOf(CocoonHibernationSchema.safeParse(hibernation(spec)))).toEqual(paths);
  });

  it.each([
    ["phase", { phase: "Sleeping" }, ["status.phase", ""]],
    ["observedGeneration", { observedGeneration: 1.5 }, ["status.observedGeneration", ""]],
  ])("rejects a bad status.%s", (_name, status, paths) => {
    const input = hibernation({ podRef: { name: "p" }, desire: "Wake" }, { status });
    expect(pathsOf(CocoonHibernationSchema.safeParse(input))).toEqual(paths);
  });

  it("prunes unknown fields", () => {
    const parsed = CocoonHibernationSchema.parse(
      hibernation({ podRef: { name: "p", namespace: "x" }, desire: "Wake", extra: 1 }, { status: { phase: "Active", extra: 1 } }),
    );
    expect(parsed.spec).toEqual({ podRef: { name: "p" }, desire: "Wake" });
    expect(parsed.status).toEqual({ phase: "Active" });
  });

  it("rejects the CocoonSet kind", () => {
    const input = hibernation({ podRef: { name: "p" }, desire: "Wake" }, { kind: "CocoonSet" });
    expect(pathsOf(CocoonHibernationSchema.safeParse(input))).toEqual(["kind", ""]);
  });

  it("parses a list", () => {
    const list = { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonHibernationList", items: [] };
    expect(CocoonHibernationListSchema.parse(list)).toEqual(list);
  });
});
