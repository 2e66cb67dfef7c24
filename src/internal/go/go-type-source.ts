// A Go table written out as the TypeScript that builds it, for a generated module: an entry point
// that loads no zod (./meta) still encodes with the table derived from a zod schema.
import type { GoType } from "./go-type.js";

const LEAVES: Readonly<Record<string, string>> = {
  string: "STRING",
  bool: "BOOL",
  int32: "INT32",
  int64: "INT64",
  int64safe: "INT64_SAFE",
  quantity: "QUANTITY",
  time: "TIME",
  raw: "RAW",
  bytes: "BYTES",
};

/**
 * The expression that builds `type` from the constructors of src/internal/go (`struct`, `oe`,
 * `always`, `ptr`, `slice`, `map` and the leaf constants), one field to a line, and the names it uses.
 *
 * @internal
 */
export function goTypeSource(type: GoType): { readonly source: string; readonly names: readonly string[] } {
  const names = new Set<string>();
  const use = (name: string): string => (names.add(name), name);
  const write = (t: GoType, indent: string): string => {
    switch (t.kind) {
      case "ptr":
      case "slice":
      case "map":
        return `${use(t.kind)}(${write(t.elem, indent)})`;
      case "struct": {
        if (t.fields.length === 0) return `${use("struct")}()`;
        const inner = `${indent}  `;
        const fields = t.fields.map(
          (f) => `${inner}${use(f.omitempty ? "oe" : "always")}(${JSON.stringify(f.name)}, ${write(f.type, inner)}),`,
        );
        return `${use("struct")}(\n${fields.join("\n")}\n${indent})`;
      }
      default: {
        const leaf = LEAVES[t.kind === "int64" && t.safe === true ? "int64safe" : t.kind];
        if (leaf === undefined) throw new TypeError(`a Go ${t.kind} has no constant to write`);
        return use(leaf);
      }
    }
  };
  const source = write(type, "");
  return { source, names: [...names].sort() };
}
