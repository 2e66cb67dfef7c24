import type { z } from "zod";

/**
 * Turns zod's OpenAPI 3.0 output into a Kubernetes structural schema, node by node (the `override`
 * hook of `z.toJSONSchema`).
 *
 * @internal
 */

type Node = Record<string, unknown>;
type OverrideContext = Parameters<NonNullable<NonNullable<Parameters<typeof z.toJSONSchema>[1]>["override"]>>[0];

/** The int-or-string shape controller-gen writes for `resource.Quantity` and `intstr.IntOrString`. */
function rewriteIntOrString(node: Node): void {
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as Node[]) : [];
  const pattern = node.pattern ?? branches.find((branch) => branch.type === "string")?.pattern;
  for (const key of Object.keys(node)) {
    if (key !== "description" && key !== "default" && !key.startsWith("x-kubernetes-")) delete node[key];
  }
  node.anyOf = [{ type: "integer" }, { type: "string" }];
  if (pattern !== undefined) node.pattern = pattern;
}

/**
 * Undoes the `\/` that `RegExp.prototype.source` writes for `/`: both mean `/` in JavaScript and in
 * Go's RE2, but controller-gen writes a bare `/`.
 */
function unescapeSlashes(pattern: string): string {
  return pattern.replace(/(?<!\\)((?:\\\\)*)\\\//g, "$1/");
}

/**
 * Applies the apiserver's structural-schema rules to one node: int-or-string nodes get
 * `anyOf: [integer, string]` with the pattern beside it; `additionalProperties` never sits next to
 * `properties`; `z.int()`'s safe-integer bounds are dropped (the CRD has no such bounds); `required`
 * is sorted and `pattern` written as controller-gen writes them.
 */
export function structuralNode(ctx: OverrideContext): void {
  const node = ctx.jsonSchema as Node;
  if (node["x-kubernetes-int-or-string"] === true) {
    rewriteIntOrString(node);
    return;
  }
  if (node.properties !== undefined) delete node.additionalProperties;
  if (node.type === "integer") {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
  if (typeof node.pattern === "string") node.pattern = unescapeSlashes(node.pattern);
  if (Array.isArray(node.required)) node.required = [...(node.required as string[])].sort();
}
