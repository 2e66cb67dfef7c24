import { PatchStrategy } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { mergeFromBody } from "./merge-from.js";
import { sendPatch } from "./send-patch.js";
import { unsent, type Patched } from "./patched.js";
import { resolveTarget, type KubeObject, type PatchClients } from "./target.js";

/**
 * Options of {@link patch} and {@link patchStatus}.
 *
 * @example
 * ```ts
 * const options: PatchOptions = { optimisticLock: true, signal: AbortSignal.timeout(10_000) };
 * set = await patch(clients, set, (draft) => void (draft.metadata.labels = { team: "agents" }), options);
 * // a concurrent write since `set` was read: rejects with a 409, isConflict(err) === true
 * ```
 */
export interface PatchOptions {
  /**
   * Guard the patch with the object's `metadata.resourceVersion` (controller-runtime's
   * `MergeFromWithOptimisticLock`): the server refuses it with 409 Conflict when the object changed
   * since it was read. Off by default, as in Go's `Patch`/`PatchStatus`.
   */
  optimisticLock?: boolean | undefined;
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Changes the copy it is given; may be async. */
export type Mutation<T> = (copy: T) => void | Promise<void>;

/**
 * Mutates a deep copy of `obj` and sends the difference as one JSON merge patch (Go's `k8s.Patch`).
 *
 * The body is the one Go's `client.MergeFrom` sends, byte for byte: fields map by key, a removed
 * field is `null`, a changed list goes whole, keys are sorted and strings escaped as Go's encoder
 * does. A CocoonSet or CocoonHibernation is compared as Go's typed struct holds it, so a zero value
 * of an `omitempty` field (`phase: ""`, `observedGeneration: 0`, an empty map) means "absent", as
 * in Go. A merge patch rather than a JSON patch because it never addresses a list element by an
 * index the server may have shifted meanwhile, and deleting a key that is already gone is not an
 * error. `obj` is never modified; the promise resolves to the server's copy (client-node's `V1Pod` for a
 * pod, its timestamps `Date`s: {@link Patched}), or to `obj` itself when nothing was sent.
 *
 * Two deliberate differences from Go (docs/differences-from-go.md): nothing is sent when the
 * mutation changes nothing (Go sends `{}`), and emptying `metadata.annotations` or `labels`
 * deletes the keys that were read, never keys another writer added since (Go sends `null` for
 * the whole map).
 *
 * @param clients - `core` for Pods, `customObjects` for CocoonSets and CocoonHibernations.
 * @param obj - The object as read from the server.
 * @param mutate - Changes the copy it is given.
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an unsupported kind, a
 * missing or invalid name or namespace (not one path segment, or not a name the API server could
 * have stored), a missing client, or `optimisticLock` without a `resourceVersion`;
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not `obj` (another kind,
 * namespace, name, or uid when `obj` has one); client-node's `ApiException` for a refused request
 * (read it with `statusCode`, `isConflict`, ...).
 * @example
 * ```ts
 * const updated = await patch(clients, set, (copy) => {
 *   copy.metadata.labels = { ...copy.metadata.labels, team: "a" };
 * }, { optimisticLock: true });
 * ```
 */
export function patch<T extends KubeObject>(
  clients: PatchClients,
  obj: T,
  mutate: Mutation<T>,
  options: PatchOptions = {},
): Promise<Patched<T>> {
  return patchWith(clients, obj, mutate, options, false);
}

/**
 * Mutates a deep copy of `obj` and sends the difference as one JSON merge patch to its `/status`
 * subresource (Go's `k8s.PatchStatus`); the server applies only the status part there.
 *
 * Otherwise the same as {@link patch}.
 *
 * @example
 * ```ts
 * await patchStatus(clients, set, (copy) => {
 *   copy.status = { ...copy.status, phase: "Suspended" };
 * });
 * ```
 */
export function patchStatus<T extends KubeObject>(
  clients: PatchClients,
  obj: T,
  mutate: Mutation<T>,
  options: PatchOptions = {},
): Promise<Patched<T>> {
  return patchWith(clients, obj, mutate, options, true);
}

async function patchWith<T extends KubeObject>(
  clients: PatchClients,
  obj: T,
  mutate: Mutation<T>,
  options: PatchOptions,
  status: boolean,
): Promise<Patched<T>> {
  const target = resolveTarget(obj, status ? "patchStatus" : "patch");
  const resourceVersion = obj.metadata?.resourceVersion;
  if (options.optimisticLock && !resourceVersion) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `optimisticLock needs metadata.resourceVersion on ${target.kind} ${target.namespace}/${target.name}`,
    );
  }
  const copy = structuredClone(obj);
  await mutate(copy);
  const body = mergeFromBody(target, obj, copy, options.optimisticLock ? resourceVersion : undefined);
  if (body === undefined) return unsent(obj);
  options.signal?.throwIfAborted();
  return (await sendPatch(clients, target, { body, contentType: PatchStrategy.MergePatch, status, signal: options.signal })) as Patched<T>;
}
