import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POD_GO_TYPE_FILE, renderPodGoType } from "../../../scripts/generate-from-schemas.js";

describe("POD", () => {
  it("is generated from BuiltPodSchema: the committed file is a fresh render (npm run generate)", () => {
    expect(readFileSync(POD_GO_TYPE_FILE, "utf8")).toBe(renderPodGoType());
  });
});
