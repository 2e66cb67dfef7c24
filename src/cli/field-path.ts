import { type Document, type LineCounter, type Node, isAlias, isMap, isScalar, isSeq } from "yaml";

/** A field path from an object's root: keys and list indices, as zod reports them. */
export type FieldPath = readonly PropertyKey[];

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a field path the way the API server does: `spec.toolboxes[0].name`; keys that are not
 * plain words are bracketed, as in `metadata.annotations[vm.cocoonstack.io/hibernate]`. The
 * root is `""`.
 *
 * @example
 * ```ts
 * formatFieldPath(["spec", "toolboxes", 0, "name"]); // => "spec.toolboxes[0].name"
 * ```
 */
export function formatFieldPath(path: FieldPath): string {
  let text = "";
  for (const segment of path) {
    const key = String(segment);
    if (typeof segment === "number") text += `[${key}]`;
    else if (PLAIN_KEY.test(key)) text += text === "" ? key : `.${key}`;
    else text += `[${key}]`;
  }
  return text;
}

function startOf(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}

/**
 * Finds where the field at `path` is written: the offset of its key in a mapping, or of the item
 * in a sequence. When the field is missing (a required field left out) it falls back to the
 * deepest ancestor that is there, so the line still points at the object that lacks it.
 *
 * @param doc - The parsed YAML document (aliases are followed).
 * @param root - The node `path` starts from: the document's contents, or an item of a List.
 */
function offsetOf(doc: Document, root: Node, path: FieldPath): number {
  let node: unknown = root;
  let offset = startOf(root) ?? 0;
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(segment));
      if (pair === undefined) break;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
      node = node.items[segment];
      offset = startOf(node) ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

/**
 * Returns the 1-based line where the field at `path` is written (see {@link formatFieldPath} for
 * the path), or of its deepest present ancestor.
 */
export function lineOfField(doc: Document, root: Node, lineCounter: LineCounter, path: FieldPath): number {
  return lineCounter.linePos(offsetOf(doc, root, path)).line;
}
