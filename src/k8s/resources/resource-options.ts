/**
 * Names one namespaced object.
 *
 * @example
 * ```ts
 * const ref: ObjectRef = { namespace: "demo", name: "sandbox" };
 * const set = await clients.cocoonSets.get(ref);
 * ```
 */
export interface ObjectRef {
  /** The object's namespace (every cocoon kind is namespaced). */
  readonly namespace: string;
  /** The object's name. */
  readonly name: string;
}

/**
 * Options of one typed-client call.
 *
 * @example
 * ```ts
 * const options: CallOptions = { signal: AbortSignal.timeout(5_000) };
 * const set = await clients.cocoonSets.get({ namespace: "demo", name: "sandbox" }, options); // rejects with a TimeoutError after 5 s
 * ```
 */
export interface CallOptions {
  /** Aborts the request; the call then rejects with the signal's reason, and a call not yet sent is never sent. */
  signal?: AbortSignal | undefined;
}

/**
 * Options of a typed client's `list`.
 *
 * @example
 * ```ts
 * const options: ListOptions = { namespace: "demo", labelSelector: { [Label.Role]: Role.Main } };
 * const { items } = await clients.cocoonSets.list(options);
 * ```
 */
export interface ListOptions extends CallOptions {
  /** The namespace to list; all namespaces when it is missing. */
  namespace?: string | undefined;
  /** A label selector: the API's text (`app=a,tier!=db`), or a map of labels that must all equal (`{ app: "a" }`). */
  labelSelector?: string | Readonly<Record<string, string>> | undefined;
  /** A field selector, e.g. `metadata.name=sandbox`. */
  fieldSelector?: string | undefined;
  /** At most this many items; the list's `metadata.continue` then asks for the next page. */
  limit?: number | undefined;
  /** The `metadata.continue` of the previous page. */
  continue?: string | undefined;
}

/**
 * Options of a typed client's `delete` (the API's `DeleteOptions`).
 *
 * @example
 * ```ts
 * const options: DeleteOptions = { preconditions: { uid: set.metadata.uid }, propagationPolicy: "Foreground" };
 * await clients.cocoonSets.delete({ namespace: "demo", name: "sandbox" }, options);
 * ```
 */
export interface DeleteOptions extends CallOptions {
  /**
   * The server deletes only an object with this uid and/or resourceVersion, else answers 409
   * Conflict (`isConflict(err)`): a newer object that took the name is never deleted.
   */
  preconditions?: { uid?: string | undefined; resourceVersion?: string | undefined } | undefined;
  /** How dependents (the set's pods) are deleted: `Background` (the server's default for custom resources), `Foreground`, `Orphan`. */
  propagationPolicy?: "Foreground" | "Background" | "Orphan" | undefined;
  /** Seconds before the object is deleted; `0` deletes at once. */
  gracePeriodSeconds?: number | undefined;
}

/**
 * One operation of a JSON patch (RFC 6902), sent as `application/json-patch+json`.
 *
 * @example
 * ```ts
 * const ops: JSONPatchOperation[] = [
 *   { op: "test", path: "/metadata/resourceVersion", value: set.metadata.resourceVersion },
 *   { op: "replace", path: "/spec/suspend", value: true },
 * ];
 * ```
 */
export type JSONPatchOperation =
  | { readonly op: "add" | "replace" | "test"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string }
  | { readonly op: "move" | "copy"; readonly from: string; readonly path: string };

/**
 * The body of a typed client's `patch` by reference: an object is a JSON merge patch (RFC 7386,
 * `application/merge-patch+json`), an array a JSON patch (RFC 6902).
 *
 * @example
 * ```ts
 * const merge: ResourcePatch = { spec: { suspend: true } };
 * const json: ResourcePatch = [{ op: "replace", path: "/spec/suspend", value: true }];
 * ```
 */
export type ResourcePatch = Readonly<Record<string, unknown>> | readonly JSONPatchOperation[];
