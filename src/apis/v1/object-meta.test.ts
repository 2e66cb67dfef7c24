import { describe, expect, it } from "vitest";
import { issuesOf } from "./internal/test-fixtures.js";
import { ObjectMetaSchema } from "./object-meta.js";

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
  "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe("ObjectMetaSchema name checks (NameIsDNSSubdomain)", () => {
  it.each([["demo"], ["demo-1"], ["a.b.c"], ["0"], ["x".repeat(253)], ["a".repeat(63) + "." + "b".repeat(63)]])(
    "accepts name %j",
    (name) => {
      expect(issuesOf(ObjectMetaSchema.safeParse({ name }))).toEqual([]);
    },
  );

  it.each([["Demo"], ["-demo"], ["demo-"], ["de_mo"], ["a..b"], ["."], ["démo"], ["a b"]])("rejects name %j", (name) => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ name }))).toEqual([{ path: ["name"], message: SUBDOMAIN_MESSAGE }]);
  });

  it("rejects a name longer than 253 characters", () => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ name: "x".repeat(254) }))).toEqual([
      { path: ["name"], message: "must be no more than 253 characters" },
    ]);
  });

  it.each([[{}], [{ name: "" }], [{ name: "", generateName: "" }]])("requires a name or generateName: %j", (meta) => {
    expect(issuesOf(ObjectMetaSchema.safeParse(meta))).toEqual([{ path: ["name"], message: "name or generateName is required" }]);
  });

  it.each([["demo-"], ["demo"], ["a.b-"], ["x".repeat(300)]])("accepts generateName %j without a name", (generateName) => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ generateName }))).toEqual([
      ...(generateName.length > 253 ? [{ path: ["generateName"], message: "must be no more than 253 characters" }] : []),
    ]);
  });

  it("rejects a bad generateName at generateName and at the name it would generate", () => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ generateName: "Demo-" }))).toEqual([
      { path: ["generateName"], message: SUBDOMAIN_MESSAGE },
      { path: ["name"], message: `generated from generateName: ${SUBDOMAIN_MESSAGE}` },
    ]);
  });

  it("checks name, not the generated one, when both are set", () => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ name: "demo", generateName: "demo-" }))).toEqual([]);
  });

  it.each([
    ["default", []],
    ["Default", [{ path: ["namespace"], message: LABEL_MESSAGE }]],
    ["a.b", [{ path: ["namespace"], message: LABEL_MESSAGE }]],
    ["x".repeat(64), [{ path: ["namespace"], message: "must be no more than 63 characters" }]],
  ])("checks namespace %j as a DNS-1123 label", (namespace, expected) => {
    expect(issuesOf(ObjectMetaSchema.safeParse({ name: "demo", namespace }))).toEqual(expected);
  });

  it("keeps unknown keys and checks the typed ones", () => {
    const meta = { name: "demo", uid: "u", creationTimestamp: "2026-08-12T10:00:00Z", managedFields: [{}] };
    expect(ObjectMetaSchema.parse(meta)).toEqual(meta);
    expect(issuesOf(ObjectMetaSchema.safeParse({ name: "demo", labels: { a: 1 } })).map((i) => i.path)).toEqual([["labels", "a"]]);
  });
});
