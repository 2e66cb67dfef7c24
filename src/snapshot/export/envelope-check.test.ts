// The push checks snapshot.json with a check generated from SnapshotEnvelopeSchema, so that
// ./snapshot loads no zod; the schema is loaded only to explain a refusal. The generated check must
// never accept what the schema refuses, and must accept what it takes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENVELOPE_CHECK_FILE, renderEnvelopeCheck } from "../../../scripts/generate-from-schemas.js";
import { acceptSnapshotEnvelope } from "./envelope-check.generated.js";
import { SnapshotEnvelopeSchema } from "./envelope-schema.js";

const CONFIG = { id: "snap-1", name: "vm" };
const FIELDS = ["version", "config", ...Object.keys(SnapshotEnvelopeSchema.shape.config.shape).map((k) => `config.${k}`)];
const VALUES: readonly unknown[] = [
  undefined,
  null,
  "",
  "x",
  0,
  1,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 60),
  Number.NaN,
  true,
  false,
  [],
  ["a"],
  {},
  { a: {} },
  { a: { b: 1 } },
  { a: "x" },
];

/** `{ version: 1, config: CONFIG }` with `field` set to `value` (`undefined`: the key is there, undefined). */
function envelopeWith(field: string, value: unknown): Record<string, unknown> {
  const config: Record<string, unknown> = { ...CONFIG };
  const root: Record<string, unknown> = { version: 1, config };
  if (field.startsWith("config.")) config[field.slice("config.".length)] = value;
  else root[field] = value;
  return root;
}

describe("acceptSnapshotEnvelope", () => {
  it("is generated from SnapshotEnvelopeSchema: the committed file is a fresh render (npm run generate)", () => {
    expect(readFileSync(ENVELOPE_CHECK_FILE, "utf8")).toBe(renderEnvelopeCheck());
  });

  it("gives the schema's verdict for every field holding every kind of value", () => {
    const inputs = FIELDS.flatMap((field) => VALUES.map((value) => envelopeWith(field, value)));
    inputs.push(
      { ...envelopeWith("version", 1), extra: 1 },
      envelopeWith("config.extra", "x"),
      { version: 1 },
      { config: CONFIG },
      JSON.parse('{"version":1,"config":{"id":"s","name":"vm"},"__proto__":{}}') as Record<string, unknown>,
      JSON.parse('{"version":1,"config":{"id":"s","name":"vm","image_blob_ids":{"__proto__":{}}}}') as Record<string, unknown>,
    );
    const verdicts = inputs.map((input) => [input, acceptSnapshotEnvelope(input) !== undefined]);
    expect(verdicts).toEqual(inputs.map((input) => [input, SnapshotEnvelopeSchema.safeParse(input).success]));
    expect(verdicts.filter(([, ok]) => ok).length).toBeGreaterThan(40);
  });

  it("returns the object itself when it passes, equal to the schema's copy", () => {
    const input = { version: 2, config: { ...CONFIG, cpu: 2, windows: false, image_blob_ids: { a: {} } } };
    expect(acceptSnapshotEnvelope(input)).toBe(input);
    expect(SnapshotEnvelopeSchema.parse(input)).toEqual(input);
  });
});
