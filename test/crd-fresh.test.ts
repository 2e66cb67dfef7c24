/**
 * Fails when the committed `crds/*.yaml` differ from what `npm run generate` would write now.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CRDS_DIR, GENERATED_HEADER, renderCRDFiles } from "../scripts/generate-crds.js";

const rendered = renderCRDFiles();

describe("crds/ is up to date (run `npm run generate` to fix)", () => {
  it("holds exactly the generated manifests", () => {
    const committed = readdirSync(CRDS_DIR)
      .filter((name) => name.endsWith(".yaml"))
      .sort();
    expect(committed).toEqual(Object.keys(rendered).sort());
  });

  it.each(Object.entries(rendered))("%s matches a fresh render byte for byte", (name, text) => {
    expect(readFileSync(path.join(CRDS_DIR, name), "utf8")).toBe(text);
  });

  it.each(Object.entries(rendered))("%s starts with the generated-file comment", (_name, text) => {
    expect(text.startsWith(`${GENERATED_HEADER}\n---\n`)).toBe(true);
  });

  it("renders deterministically", () => {
    expect(renderCRDFiles()).toEqual(rendered);
  });
});
