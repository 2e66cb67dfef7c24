import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COCOON_GO_TYPES_FILE, renderCocoonGoTypes } from "../../../scripts/generate-from-schemas.js";
import { Kind } from "../../apis/v1/groupversion-info.js";
import { OBJECT_META_FIELDS } from "../../apis/v1/object-meta-fields.js";
import { BOOL, INT32, INT64, QUANTITY, STRING, TIME, always, map, oe, ptr, slice, struct, type GoType } from "../../internal/go/index.js";
import { COCOON_GO_TYPES } from "./cocoon-go-types.generated.js";

/** The type of the field at `path` (through slices and pointers), or a failure naming the step. */
function at(type: GoType, ...path: string[]): GoType {
  let t = type;
  for (const name of path) {
    while (t.kind === "slice" || t.kind === "ptr") t = t.elem;
    if (t.kind !== "struct") throw new Error(`${name}: not in a struct`);
    const field = t.fields.find((f) => f.name === name);
    if (field === undefined) throw new Error(`${name}: no such field`);
    t = field.type;
  }
  return t;
}

/** The struct's fields (through slices and pointers) as `[name, "oe" | "always"]`. */
function names(type: GoType): string[][] {
  let t = type;
  while (t.kind === "slice" || t.kind === "ptr") t = t.elem;
  return t.kind === "struct" ? t.fields.map((f) => [f.name, f.omitempty ? "oe" : "always"]) : [];
}

describe("COCOON_GO_TYPES", () => {
  it("is generated from CocoonSetSchema and CocoonHibernationSchema: the committed file is a fresh render (npm run generate)", () => {
    expect(readFileSync(COCOON_GO_TYPES_FILE, "utf8")).toBe(renderCocoonGoTypes());
  });

  it.each([Kind.CocoonSet, Kind.CocoonHibernation])("%s: TypeMeta's order, then ObjectMeta's 15 fields in Go's order", (kind) => {
    const type = COCOON_GO_TYPES[kind];
    expect(names(type)).toEqual([
      ["kind", "oe"],
      ["apiVersion", "oe"],
      ["metadata", "oe"],
      ["spec", "oe"],
      ["status", "oe"],
    ]);
    expect(names(at(type, "metadata")).map(([name]) => name)).toEqual(OBJECT_META_FIELDS);
    expect(at(type, "metadata", "generation")).toEqual({ kind: "int64" });
    expect(at(type, "metadata", "creationTimestamp")).toEqual(TIME);
    expect(at(type, "metadata", "ownerReferences", "controller")).toEqual(ptr(BOOL));
    expect(at(type, "status", "conditions")).toEqual(
      slice(
        struct(
          always("type", STRING),
          always("status", STRING),
          oe("observedGeneration", INT64),
          always("lastTransitionTime", TIME),
          always("reason", STRING),
          always("message", STRING),
        ),
      ),
    );
  });

  it("keeps CocoonSet's Go tags: pointers, int32, quantities, fields written always", () => {
    const set = COCOON_GO_TYPES[Kind.CocoonSet];
    expect(at(set, "spec", "agent", "storage")).toEqual(ptr(QUANTITY));
    expect(at(set, "spec", "toolboxes", "probePort")).toEqual(INT32);
    expect(at(set, "spec", "agent", "resources")).toEqual(
      struct(
        oe("limits", map(QUANTITY)),
        oe("requests", map(QUANTITY)),
        oe("claims", slice(struct(always("name", STRING), oe("request", STRING)))),
      ),
    );
    expect(names(at(set, "spec", "agent", "envFrom"))).toEqual([
      ["prefix", "oe"],
      ["configMapRef", "oe"],
      ["secretRef", "oe"],
    ]);
    expect(at(set, "spec", "agent", "envFrom", "configMapRef")).toEqual(ptr(struct(oe("name", STRING), oe("optional", ptr(BOOL)))));
    expect(names(at(set, "spec")).filter(([, tag]) => tag === "always")).toEqual([["agent", "always"]]);
    expect(names(at(set, "spec", "agent")).slice(0, 3)).toEqual([
      ["replicas", "oe"],
      ["image", "always"],
      ["mode", "oe"],
    ]);
    expect(names(at(set, "status")).filter(([, tag]) => tag === "always")).toEqual(
      ["readyAgents", "desiredAgents", "readyToolboxes", "desiredToolboxes"].map((name) => [name, "always"]),
    );
    expect(at(COCOON_GO_TYPES[Kind.CocoonHibernation], "spec")).toEqual(
      struct(always("podRef", struct(always("name", STRING))), always("desire", STRING)),
    );
  });
});
