import { describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/crd.js";
import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import { unknownFields } from "./unknown-fields.js";

const schemaOf = (crd: typeof cocoonSetCRD): JSONSchemaProps => crd.spec.versions[0]!.schema.openAPIV3Schema;
const SET = schemaOf(cocoonSetCRD);

describe("unknownFields", () => {
  it.each([
    {
      name: "none in a full object",
      value: { apiVersion: "v", kind: "k", metadata: { name: "a", labels: { x: "y" } }, spec: { agent: { image: "i" } } },
      want: [],
    },
    { name: "a typo in the agent", value: { spec: { agent: { imag: "i" } } }, want: [["spec", "agent", "imag"]] },
    { name: "a top-level field", value: { spek: {} }, want: [["spek"]] },
    {
      name: "inside a list item",
      value: { spec: { agent: { image: "i" }, toolboxes: [{ name: "a" }, { name: "b", colour: 1 }] } },
      want: [["spec", "toolboxes", 1, "colour"]],
    },
    {
      name: "free keys of a map (resources.limits) are fine",
      value: { spec: { agent: { image: "i", resources: { limits: { "nvidia.com/gpu": 1 } } } } },
      want: [],
    },
    { name: "an ObjectMeta typo", value: { metadata: { name: "a", label: {} } }, want: [["metadata", "label"]] },
    { name: "deep metadata is not checked", value: { metadata: { ownerReferences: [{ anything: 1 }] } }, want: [] },
    { name: "status fields are known", value: { status: { phase: "Running", readyAgents: 1 } }, want: [] },
  ])("$name", ({ value, want }) => {
    expect(unknownFields(value, SET)).toEqual(want);
  });

  it("uses the schema it is given", () => {
    expect(unknownFields({ spec: { podRef: { name: "p" }, desire: "Wake", agent: {} } }, schemaOf(cocoonHibernationCRD))).toEqual([
      ["spec", "agent"],
    ]);
  });

  it("ignores values of the wrong type (the schema check reports those)", () => {
    expect(unknownFields({ spec: "nope" }, SET)).toEqual([]);
    expect(unknownFields("nope", SET)).toEqual([]);
  });
});
