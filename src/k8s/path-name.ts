/**
 * The one check of a name or namespace that goes into a request path. client-node puts it in the
 * URL with `encodeURIComponent`, which leaves `.` and `..` as they are: a pod named `.` would turn
 * `DELETE …/pods/.` into `DELETE …/pods` (every pod of the namespace). client-go refuses such a
 * segment before sending (`Request.Name`, apimachinery `IsValidPathSegmentName`); we also refuse
 * what the API server could never have stored for the kind, so a name that cannot exist costs no
 * request either.
 *
 * @internal
 */
import { dns1123LabelErrors, dns1123SubdomainErrors } from "../internal/k8s-names.js";
import { CocoonError } from "../errors.js";

/** The kinds whose names the helpers put in a path; the API server stores each under a DNS-1123 subdomain. */
export type PathNamedKind = "Pod" | "Node" | "CocoonSet" | "CocoonHibernation";

/** Where a checked name came from, for the error message: the helper and the field. */
export interface NameSource {
  /** The helper that would send the request, e.g. `releaseSeat`. */
  readonly helper: string;
  /** The field or argument that held the name, e.g. `metadata.name`. */
  readonly field: string;
}

/**
 * apimachinery `IsValidPathSegmentName`: the reasons `name` cannot be one path segment, empty when it can.
 *
 * @example
 * ```ts
 * pathSegmentErrors(".."); // => ["may not be '..'"]
 * pathSegmentErrors("a/b%"); // => ["may not contain '/'", "may not contain '%'"]
 * ```
 */
export function pathSegmentErrors(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errors: string[] = [];
  for (const illegal of ["/", "%"]) if (name.includes(illegal)) errors.push(`may not contain '${illegal}'`);
  return errors;
}

/**
 * `name` when it may name an object of `kind` in a request path: one path segment, and a DNS-1123
 * subdomain of at most 253 characters (`NameIsDNSSubdomain`, what the API server validates Pods,
 * Nodes and custom resources against).
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` naming the helper and the field, before any request.
 * @example
 * ```ts
 * checkedObjectName("demo-0", "Pod", { helper: "releaseSeat", field: "metadata.name" }); // => "demo-0"
 * checkedObjectName(".", "Pod", { helper: "releaseSeat", field: "metadata.name" }); // throws ERR_INVALID_ARGUMENT
 * ```
 */
export function checkedObjectName(name: unknown, kind: PathNamedKind, source: NameSource): string {
  return checked(name, `a ${kind} name`, source, dns1123SubdomainErrors);
}

/**
 * `namespace` when it may name a namespace in a request path: one path segment, and a DNS-1123
 * label of at most 63 characters (apimachinery `ValidateNamespaceName`).
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` naming the helper and the field, before any request.
 * @example
 * ```ts
 * checkedNamespaceName("prod", { helper: "releaseSeat", field: "metadata.namespace" }); // => "prod"
 * checkedNamespaceName("..", { helper: "watchCocoonPods", field: "namespace" }); // throws ERR_INVALID_ARGUMENT
 * ```
 */
export function checkedNamespaceName(namespace: unknown, source: NameSource): string {
  return checked(namespace, "a namespace", source, dns1123LabelErrors);
}

function checked(value: unknown, what: string, source: NameSource, rule: (value: string) => string[]): string {
  const where = `${source.helper}: ${source.field}`;
  if (typeof value !== "string") throw new CocoonError("ERR_INVALID_ARGUMENT", `${where} is ${typeof value}, not ${what}`);
  if (value === "") throw new CocoonError("ERR_INVALID_ARGUMENT", `${where} is empty, not ${what}`);
  const segment = pathSegmentErrors(value);
  const errors = segment.length > 0 ? segment : rule(value);
  if (errors.length === 0) return value;
  throw new CocoonError("ERR_INVALID_ARGUMENT", `${where} ${quoted(value)} is not ${what}: ${errors.join("; ")}`);
}

/** The value as JSON text, cut short: a name is a tenant's text and may be megabytes long. */
function quoted(value: string): string {
  const MAX = 80;
  return value.length <= MAX ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, MAX))}… (${value.length} characters)`;
}
