import type { V1Pod } from "@kubernetes/client-node";
import type { Kind } from "../../apis/v1/groupversion-info.js";
import type { KubeObject } from "./target.js";

/**
 * What a write helper resolves to for an object of type `T`, as it is at runtime.
 *
 * A Pod goes through client-node's `CoreV1Api`, which answers with its own `V1Pod` model: its
 * timestamps are `Date`s, whatever the caller passed (a {@link WatchedPod}'s are strings). When
 * nothing is sent, the helper resolves to the object it was given. So a pod written by a helper is
 * `T | V1Pod`: `V1Pod` for a `V1Pod`, and a union to narrow for any other pod type. A CocoonSet or
 * CocoonHibernation (`kind` typed as its literal) goes through `CustomObjectsApi`, which answers
 * with the server's JSON, timestamps as strings: `T` itself. Sent through a `KubeRequester`, a pod's
 * answer is the server's JSON too (timestamps as strings): `./k8s`'s functions, which take either,
 * still say `T | V1Pod`; `./kubelet`'s, which take only a requester, resolve to `T` and name no
 * client-node type.
 *
 * @example
 * ```ts
 * for await (const event of watchCocoonPods(clients, { signal })) {
 *   if (event.type !== "added") continue;
 *   const written: Patched<WatchedPod> = await patchAnnotations(clients, event.object, { [Annotation.IP]: "10.88.0.7" });
 *   console.log(written.metadata?.creationTimestamp); // a Date when the patch was sent (a V1Pod), else the watched string
 * }
 * ```
 */
export type Patched<T extends KubeObject> = T extends { readonly kind: typeof Kind.CocoonSet | typeof Kind.CocoonHibernation }
  ? T
  : T | V1Pod;

/**
 * The object a helper was given, returned when it sent nothing: `T` is one of `Patched<T>`'s
 * members, which TypeScript cannot see while `T` is unresolved.
 *
 * @internal
 */
export function unsent<T extends KubeObject>(obj: T): Patched<T> {
  return obj as Patched<T>;
}
