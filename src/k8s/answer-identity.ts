/**
 * Whether what the API server answered is the object the request named. A `200` that carries
 * another object (another pod's name or uid, a Node, `[1,2,3]`) must never be returned as the pod,
 * or the caller's next write goes to whatever it names.
 *
 * client-node deserializes a typed answer into its model (`V1Pod`): a body that is not a JSON
 * object becomes an empty model, without `kind` or `metadata`, so checking the model's identity
 * fields refuses it too, on client-node 1.x and 2.x alike, with no look at the raw bytes.
 *
 * @internal
 */
import type { z } from "zod";
import { API_VERSION } from "../apis/v1/groupversion-info.js";
import { isContainer, stringAt } from "../internal/safe-read.js";
import { UnexpectedObjectError } from "./resources/unexpected-object-error.js";

/** The object a request named. */
export interface AskedObject {
  /** `Pod`, `Node`, `Lease`, `CocoonSet` or `CocoonHibernation`. */
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** Checked only when known: the caller's object had one. */
  readonly uid?: string | undefined;
}

/**
 * Throws unless `answer` is the object `asked` names: a JSON object of its kind and apiVersion,
 * namespace and name, and its uid when `asked.uid` is set.
 *
 * @param verb - The request, for the message: `patch`, `get`, `delete`.
 * @throws {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` whose `path` names the first field that differs.
 * @example
 * ```ts
 * checkAnswer(await core.patchNamespacedPod(params, options), { kind: "Pod", namespace: "prod", name: "demo-0" }, "patch");
 * ```
 */
export function checkAnswer(answer: unknown, asked: AskedObject, verb: string): void {
  const issue = firstDifference(answer, asked);
  if (issue === undefined) return;
  const answerTo = `${verb} ${asked.kind} ${asked.namespace}/${asked.name}`;
  const namespace = stringAt(answer, "metadata", "namespace");
  const name = stringAt(answer, "metadata", "name");
  const kind = stringAt(answer, "kind") || asked.kind;
  throw new UnexpectedObjectError(kind, namespace, name, [issue], { answerTo });
}

/** The apiVersion each kind is served under. */
export function apiVersionOf(kind: string): string {
  if (kind === "Pod" || kind === "Node") return "v1";
  return kind === "Lease" ? "coordination.k8s.io/v1" : API_VERSION;
}

function firstDifference(answer: unknown, asked: AskedObject): z.core.$ZodIssue | undefined {
  if (!isContainer(answer) || Array.isArray(answer)) return issue([], "not a JSON object");
  const fields: readonly (readonly [path: readonly string[], want: string | undefined])[] = [
    [["kind"], asked.kind],
    [["apiVersion"], apiVersionOf(asked.kind)],
    [["metadata", "namespace"], asked.namespace],
    [["metadata", "name"], asked.name],
    [["metadata", "uid"], asked.uid || undefined],
  ];
  for (const [path, want] of fields) {
    if (want === undefined) continue;
    const got = stringAt(answer, ...path);
    if (got !== want) return issue(path, `is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  }
  return undefined;
}

function issue(path: readonly string[], message: string): z.core.$ZodIssue {
  return { code: "custom", path: [...path], message, input: undefined };
}

/**
 * Checks the answer to a DELETE: a `Status` (the object is gone) or the object itself (still held by
 * finalizers, or as it was when deleted), nothing else.
 *
 * @returns `"status"` for a `Status` answer, `"object"` for the object.
 * @throws {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` for any other answer.
 * @example
 * ```ts
 * const answer = await core.deleteNamespacedPod({ name: "demo-0", namespace: "prod" });
 * checkDeleteAnswer(answer, { kind: "Pod", namespace: "prod", name: "demo-0" }); // => "object"
 * ```
 */
export function checkDeleteAnswer(answer: unknown, asked: AskedObject): "status" | "object" {
  if (stringAt(answer, "kind") === "Status" && stringAt(answer, "apiVersion") === "v1") return "status";
  checkAnswer(answer, asked, "delete");
  return "object";
}
