import { CocoonError } from "../../errors.js";
import { encodeGo, GoEncodeError, type GoType } from "../../internal/go/index.js";
import { cachedQuantityString } from "../internal/quantity-cache.js";
import { POD } from "./pod-go-type.generated.js";
import type { CocoonPod } from "./types.js";

/** Why a value cannot be held, in the words this encoder has always used. */
function why(kind: GoType["kind"] | undefined, value: unknown): string {
  switch (kind) {
    case undefined:
      return "not a field a built pod holds";
    case "string":
      return `${typeof value} is not a string`;
    case "bool":
      return `${typeof value} is not a boolean`;
    case "quantity":
      return "not a quantity";
    case "slice":
      return "not a list";
    case "map":
      return "not a map";
    case "struct":
      return "not an object";
    default:
      return `${String(value)} is not an integer`;
  }
}

/**
 * Encodes a pod byte for byte as Go's `encoding/json` writes the `corev1.Pod` the operator builds:
 * fields in Go's struct order whatever the object's key order, labels, annotations, selectors and
 * resource lists sorted by key, Go's `omitempty` (empty strings, maps and lists dropped; `resources`
 * and `status` always written), quantities in their canonical text and Go's string escaping.
 *
 * It covers the fields the pod builders write: a field outside them is refused rather than
 * silently dropped.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for a field a built pod does not hold or a
 * value of the wrong type; `ERR_INVALID_QUANTITY` for a resource that is not a quantity.
 * @example
 * ```ts
 * marshalPodGoJSON(buildMainPod(set)); // '{"metadata":{"name":"demo-0",…},"spec":{…},"status":{}}'
 * ```
 */
export function marshalPodGoJSON(pod: CocoonPod): string {
  try {
    return encodeGo(POD, pod, () => undefined, { root: "pod", quantity: cachedQuantityString, unknownFields: "refuse" });
  } catch (err) {
    if (!(err instanceof GoEncodeError)) throw err;
    throw new CocoonError("ERR_INVALID_ARGUMENT", `${err.path} cannot be written as a Go corev1.Pod field: ${why(err.goKind, err.value)}`);
  }
}
