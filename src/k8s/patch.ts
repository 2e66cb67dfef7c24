import { PatchStrategy } from "@kubernetes/client-node";
import { CocoonError } from "../errors.js";
import { mergePatchDiff } from "./merge-patch-diff.js";
import { resolveTarget, sendPatch, type KubeObject, type PatchClients } from "./patch-target.js";

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
 * The difference is computed with fast-json-patch and sent as a merge patch, the way Go's
 * `client.MergeFrom` does: fields map by key, a removed field is `null`, and a changed list goes
 * whole. A merge patch rather than a JSON patch because it never addresses a list element by an
 * index the server may have shifted meanwhile, deleting a key that is already gone is not an
 * error, and the wire form stays Go's. Nothing is sent when the mutation changes nothing. `obj`
 * is never modified; the promise resolves to the server's copy (or `obj` itself when nothing was sent).
 *
 * @param clients - `core` for Pods, `customObjects` for CocoonSets and CocoonHibernations.
 * @param obj - The object as read from the server.
 * @param mutate - Changes the copy it is given.
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for an unsupported kind, a missing name,
 * namespace or client, or `optimisticLock` without a `resourceVersion`; client-node's `ApiException`
 * for a refused request (read it with `statusCode`, `isConflict`, ...).
 * @example
 * ```ts
 * const updated = await patch(clients, set, (copy) => {
 *   copy.metadata.labels = { ...copy.metadata.labels, team: "a" };
 * }, { optimisticLock: true });
 * ```
 */
export function patch<T extends KubeObject>(clients: PatchClients, obj: T, mutate: Mutation<T>, options: PatchOptions = {}): Promise<T> {
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
export function patchStatus<T extends KubeObject>(clients: PatchClients, obj: T, mutate: Mutation<T>, options: PatchOptions = {}): Promise<T> {
  return patchWith(clients, obj, mutate, options, true);
}

async function patchWith<T extends KubeObject>(clients: PatchClients, obj: T, mutate: Mutation<T>, options: PatchOptions, status: boolean): Promise<T> {
  const target = resolveTarget(obj);
  const resourceVersion = obj.metadata?.resourceVersion;
  if (options.optimisticLock && !resourceVersion) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `optimisticLock needs metadata.resourceVersion on ${target.kind} ${target.namespace}/${target.name}`);
  }
  const copy = structuredClone(obj);
  await mutate(copy);
  const body = mergePatchDiff(obj, copy);
  if (body === undefined) return obj;
  if (options.optimisticLock) {
    const metadata = typeof body["metadata"] === "object" && body["metadata"] !== null ? body["metadata"] : {};
    body["metadata"] = { ...metadata, resourceVersion };
  }
  options.signal?.throwIfAborted();
  return (await sendPatch(clients, target, { body, contentType: PatchStrategy.MergePatch, status, signal: options.signal })) as T;
}
