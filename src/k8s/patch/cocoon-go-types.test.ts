import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COCOON_GO_TYPES_FILE, renderCocoonGoTypes } from "../../../scripts/generate-from-schemas.js";
import { Kind } from "../../apis/v1/groupversion-info.js";
import { COCOON_GO_TYPES as HAND } from "./cocoon-go-types.js";
import { COCOON_GO_TYPES } from "./cocoon-go-types.generated.js";

describe("COCOON_GO_TYPES", () => {
  it("is generated from CocoonSetSchema and CocoonHibernationSchema: the committed file is a fresh render (npm run generate)", () => {
    expect(readFileSync(COCOON_GO_TYPES_FILE, "utf8")).toBe(renderCocoonGoTypes());
  });

  it.each([Kind.CocoonSet, Kind.CocoonHibernation])("equals the hand-written table for %s", (kind) => {
    expect(COCOON_GO_TYPES[kind]).toStrictEqual(HAND[kind]);
  });
});
