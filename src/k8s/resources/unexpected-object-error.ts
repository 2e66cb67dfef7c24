import type { z } from "zod";
import { CocoonError, isCocoonError } from "../../errors.js";

/**
 * Thrown, code `ERR_UNEXPECTED_OBJECT`, when the API server answers with something that is not the
 * object asked for: by the typed clients ({@link cocoonSetClient}, {@link cocoonHibernationClient})
 * when an object does not parse with its zod schema, and by every helper that writes or reads one
 * object by name (the patch helpers, {@link releaseSeat}, {@link finishPodDeletion},
 * {@link writePodStatus}, the typed clients) when a `200` answer is not a JSON object, or is one of
 * another kind, apiVersion, namespace or name, or (when the caller's object had one) another uid.
 *
 * The server validates what it stores against the CRD, so this means the CRD and the schema
 * disagree: an older or newer CRD installed, a field written through another version, an integer
 * beyond 2^53 that `JSON.parse` cannot hold. The message names the object and the path of the
 * first issue; `issues` has them all, and `cause` is the `ZodError`.
 *
 * @example
 * ```ts
 * try {
 *   await clients.cocoonSets.get({ namespace: "demo", name: "sandbox" });
 * } catch (err) {
 *   if (isUnexpectedObjectError(err)) console.error(err.path, err.issues.length);
 *   // => "status.observedGeneration" 1
 * }
 * ```
 */
export class UnexpectedObjectError extends CocoonError {
  /** Always `UnexpectedObjectError`. */
  override name = "UnexpectedObjectError";
  /** The kind asked for: `Pod`, `CocoonSet` or `CocoonHibernation`. */
  readonly kind: string;
  /** `metadata.namespace` of the object as received, `""` when it had none. */
  readonly namespace: string;
  /** `metadata.name` of the object as received, `""` when it had none. */
  readonly objectName: string;
  /**
   * The dotted path of the first issue within the object (`spec.agent.replicas`), `""` for the object
   * itself; for an answer that is another object, the field that differs (`metadata.uid`).
   */
  readonly path: string;
  /** Every issue zod found, paths relative to the object. */
  readonly issues: readonly z.core.$ZodIssue[];

  /**
   * @param kind - Kind of the object.
   * @param namespace - Its namespace as received.
   * @param objectName - Its name as received.
   * @param issues - The issues, paths relative to the object.
   * @param options - `cause`: the `ZodError`; `listIndex`: the object's index when it came in a list;
   * `answerTo`: the request (`patch Pod prod/demo-0`) when the answer is not the object it asked for.
   */
  constructor(
    kind: string,
    namespace: string,
    objectName: string,
    issues: readonly z.core.$ZodIssue[],
    options: ErrorOptions & { listIndex?: number | undefined; answerTo?: string | undefined } = {},
  ) {
    const first = issues[0];
    const path = first === undefined ? "" : dotted(first.path);
    const at = first === undefined ? "" : `${path === "" ? "(the object)" : path}: ${first.message}`;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    const what = objectName === "" ? `a ${kind}` : `${kind} ${namespace === "" ? "" : `${namespace}/`}${objectName}`;
    const item = options.listIndex === undefined ? "" : ` (item ${options.listIndex} of a list)`;
    const message =
      options.answerTo === undefined
        ? `${what}${item} from the API server does not parse: ${at}${more}`
        : `${options.answerTo}: the API server answered with ${objectName === "" ? "something" : what} that is not the object asked for: ${at}`;
    super("ERR_UNEXPECTED_OBJECT", message, { cause: options.cause });
    this.kind = kind;
    this.namespace = namespace;
    this.objectName = objectName;
    this.path = path;
    this.issues = issues;
  }
}

/**
 * Reports whether `err` is an {@link UnexpectedObjectError}; works across duplicate installs of the
 * package, where `instanceof` does not.
 *
 * @example
 * ```ts
 * const set = await clients.cocoonSets.get({ namespace: "demo", name: "sandbox" }).catch((err: unknown) => {
 *   if (isUnexpectedObjectError(err)) return undefined; // skip it: a CRD this version does not read
 *   throw err;
 * });
 * ```
 */
export function isUnexpectedObjectError(err: unknown): err is UnexpectedObjectError {
  return isCocoonError(err, "ERR_UNEXPECTED_OBJECT");
}

function dotted(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === "number" ? `[${key}]` : String(key)))
    .join(".")
    .replaceAll(".[", "[");
}
