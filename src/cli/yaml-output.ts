import { stringify } from "yaml";

/**
 * Renders values as a YAML stream that kubectl reads back unchanged: YAML 1.1 quoting (so the
 * string `"yes"` stays a string), no line folding, no anchors; documents separated by `---`.
 */
export function toYAMLStream(values: readonly unknown[]): string {
  return values.map((value) => stringify(value, { version: "1.1", lineWidth: 0, aliasDuplicateObjects: false })).join("---\n");
}
