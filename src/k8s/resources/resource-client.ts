import { PatchStrategy, type CustomObjectsApi } from "@kubernetes/client-node";
import type { z } from "zod";
import { GROUP, VERSION } from "../../apis/v1/groupversion-info.js";
import { CocoonError } from "../../errors.js";
import { stringAt } from "../../internal/safe-read.js";
import { checkAnswer, checkDeleteAnswer } from "../answer-identity.js";
import { callOptions } from "../call-options.js";
import { checkedNamespaceName, checkedObjectName, type PathNamedKind } from "../path-name.js";
import { patch, patchStatus, type Mutation, type PatchOptions } from "../patch/clientpatch.js";
import { sendPatch } from "../patch/send-patch.js";
import { PLURALS, type KubeObject, type Target } from "../patch/target.js";
import { labelSelectorText } from "./label-selector.js";
import { parseServerList, parseServerObject } from "./parse-server-object.js";
import type { CallOptions, DeleteOptions, ListOptions, ObjectRef, ResourcePatch } from "./resource-options.js";

/**
 * The client-node API client the typed clients need: `CustomObjectsApi` as `customObjects`
 * ({@link CocoonClients} fits, and so does `{ customObjects: kc.makeApiClient(CustomObjectsApi) }`).
 */
export interface ResourceClients {
  /** Client-node's `CustomObjectsApi` (or anything with these methods). */
  readonly customObjects: Pick<
    CustomObjectsApi,
    | "getNamespacedCustomObject"
    | "listNamespacedCustomObject"
    | "listClusterCustomObject"
    | "createNamespacedCustomObject"
    | "patchNamespacedCustomObject"
    | "patchNamespacedCustomObjectStatus"
    | "deleteNamespacedCustomObject"
  >;
}

/**
 * A typed client of one cocoon kind: every result is parsed with the kind's zod schema, so it is
 * typed without a cast, and an object that does not parse, or is not the one asked for (another
 * kind, namespace or name), rejects with {@link UnexpectedObjectError}. Names and namespaces are
 * checked before any request, as the API server would (`ERR_INVALID_ARGUMENT`).
 * Refused requests reject with client-node's `ApiException` (read it with `isNotFound`, `isConflict`, ...);
 * an aborted call rejects with the signal's reason.
 *
 * @typeParam T - The kind as read back (`CocoonSet`).
 * @typeParam I - The kind as written (`CocoonSetInput`).
 * @typeParam L - Its list as read back (`CocoonSetList`).
 * @example
 * ```ts
 * const sets: CocoonResourceClient<CocoonSet, CocoonSetInput, CocoonSetList> = clients.cocoonSets;
 * let set = await sets.get({ namespace: "demo", name: "sandbox" });
 * set = await sets.patch(set, (draft) => void (draft.metadata.labels = { team: "agents" }));
 * ```
 */
export interface CocoonResourceClient<T extends KubeObject, I extends object, L> {
  /** Reads one object. */
  get(ref: ObjectRef, options?: CallOptions): Promise<T>;
  /** Lists the objects of one namespace, or of all namespaces when `options.namespace` is missing. */
  list(options?: ListOptions): Promise<L>;
  /** Creates `obj` in its `metadata.namespace`; resolves to the server's copy, defaults applied. */
  create(obj: I, options?: CallOptions): Promise<T>;
  /**
   * Mutates a deep copy of `obj` and sends the difference as one JSON merge patch, as {@link patch}
   * does (Go's `client.MergeFrom` bytes; nothing is sent, and `obj` comes back, when nothing changed).
   */
  patch(obj: T, mutate: Mutation<T>, options?: PatchOptions): Promise<T>;
  /** Sends `body` as it is: an object as a JSON merge patch, an array as a JSON patch. */
  patch(ref: ObjectRef, body: ResourcePatch, options?: CallOptions): Promise<T>;
  /** {@link CocoonResourceClient.patch} of the `/status` subresource (the server applies only `status` there). */
  patchStatus(obj: T, mutate: Mutation<T>, options?: PatchOptions): Promise<T>;
  /** Sends `body` as it is to the `/status` subresource: an object as a JSON merge patch, an array as a JSON patch. */
  patchStatus(ref: ObjectRef, body: ResourcePatch, options?: CallOptions): Promise<T>;
  /**
   * Deletes one object. Resolves to `undefined` when it is gone, or to the object still there
   * (`metadata.deletionTimestamp` set) while finalizers hold it.
   */
  delete(ref: ObjectRef, options?: DeleteOptions): Promise<T | undefined>;
}

/**
 * What a typed client is built from: the kind and its schemas, loaded on the first answer so that
 * `./k8s` loads zod only when a typed client parses. @internal
 */
export interface ResourceKind<T, L> {
  readonly kind: Target["kind"] & keyof typeof PLURALS;
  readonly schemas: () => Promise<{ readonly schema: z.ZodType<T>; readonly listSchema: z.ZodType<L> }>;
}

/**
 * Builds the typed client of one kind on `clients.customObjects`.
 *
 * @internal
 */
export function resourceClient<T extends KubeObject, I extends object, L>(
  clients: ResourceClients,
  resource: ResourceKind<T, L>,
): CocoonResourceClient<T, I, L> {
  const api = clients.customObjects;
  const { kind } = resource;
  const base = { group: GROUP, version: VERSION, plural: PLURALS[kind] };
  const parse = async (raw: unknown): Promise<T> => parseServerObject((await resource.schemas()).schema, kind, raw);
  /** The answer parsed, once it is the object asked for. */
  const parseAnswer = (raw: unknown, asked: ObjectRef, verb: string): Promise<T> => {
    checkAnswer(raw, { kind, ...asked }, verb);
    return parse(raw);
  };
  const patchWith = (status: boolean) =>
    async function (target: T | ObjectRef, change: Mutation<T> | ResourcePatch, options: PatchOptions = {}): Promise<T> {
      if (isRef(target)) {
        if (typeof change === "function")
          throw invalid(`patching ${kind} ${describe(target)} with a mutation needs the object, not a reference`);
        return parse(
          await sendPatch(
            { customObjects: api },
            { kind, ...checked(kind, status ? "patchStatus" : "patch", target) },
            patchRequest(change, status, options),
          ),
        );
      }
      if (typeof change !== "function") throw invalid(`patching ${kind} with a body needs a reference { namespace, name }, not the object`);
      const sent: unknown = await (status ? patchStatus : patch)({ customObjects: api }, target, change, options);
      return sent === target ? target : parse(sent);
    };
  return {
    get: async (ref, options = {}) => {
      const asked = checked(kind, "get", ref);
      return withSignal(options.signal, async () =>
        parseAnswer(await api.getNamespacedCustomObject({ ...base, ...asked }, callOptions(options)), asked, "get"),
      );
    },
    list: (options = {}) =>
      withSignal(options.signal, async () => parseServerList((await resource.schemas()).listSchema, kind, await list(api, base, options))),
    create: async (obj, options = {}) => {
      const namespace = stringAt(obj, "metadata", "namespace");
      if (namespace === "") throw invalid(`cannot create a ${kind} without metadata.namespace`);
      if (stringAt(obj, "kind") !== kind) throw invalid(`cannot create kind "${stringAt(obj, "kind")}" through the ${kind} client`);
      checkedNamespaceName(namespace, { helper: `${kind} create`, field: "metadata.namespace" });
      // A name only generated by the server (from generateName) is not known here: the answer's is taken.
      const name = stringAt(obj, "metadata", "name");
      return withSignal(options.signal, async () => {
        const raw: unknown = await api.createNamespacedCustomObject({ ...base, namespace, body: obj }, callOptions(options));
        return parseAnswer(raw, { namespace, name: name === "" ? stringAt(raw, "metadata", "name") || "?" : name }, "create");
      });
    },
    patch: patchWith(false),
    patchStatus: patchWith(true),
    delete: async (ref, options = {}) => {
      const asked = checked(kind, "delete", ref);
      const params = { ...base, ...asked, ...deleteBody(options) };
      return withSignal(options.signal, async () => {
        const raw: unknown = await api.deleteNamespacedCustomObject(params, callOptions(options));
        // A Status when the object is gone; the object while finalizers hold it.
        return checkDeleteAnswer(raw, { kind, ...asked }) === "status" ? undefined : parse(raw);
      });
    },
  };
}

interface Base {
  group: string;
  version: string;
  plural: string;
}

function list(api: ResourceClients["customObjects"], base: Base, options: ListOptions): Promise<unknown> {
  const selector = options.labelSelector;
  const query = {
    ...(selector === undefined ? {} : { labelSelector: labelSelectorText(selector) }),
    ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.continue === undefined ? {} : { _continue: options.continue }),
  };
  const call = callOptions(options);
  return options.namespace === undefined
    ? api.listClusterCustomObject({ ...base, ...query }, call)
    : api.listNamespacedCustomObject({ ...base, namespace: checkedNamespace(options.namespace, base.plural), ...query }, call);
}

function deleteBody(options: DeleteOptions): { body?: object } {
  const { preconditions, propagationPolicy, gracePeriodSeconds } = options;
  const body = {
    ...(preconditions === undefined ? {} : { preconditions }),
    ...(propagationPolicy === undefined ? {} : { propagationPolicy }),
    ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
  };
  return Object.keys(body).length === 0 ? {} : { body };
}

function patchRequest(body: ResourcePatch, status: boolean, options: CallOptions) {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JavaScript callers
  if (typeof body !== "object" || body === null) throw invalid("a patch body is an object (merge patch) or an array (JSON patch)");
  const contentType = Array.isArray(body) ? PatchStrategy.JsonPatch : PatchStrategy.MergePatch;
  options.signal?.throwIfAborted();
  return { body: JSON.stringify(body), contentType, status, signal: options.signal };
}

/** Runs one request: nothing is sent once `signal` is aborted, and an abort rejects with the signal's reason. */
async function withSignal<R>(signal: AbortSignal | undefined, send: () => Promise<R>): Promise<R> {
  signal?.throwIfAborted();
  try {
    return await send();
  } catch (err) {
    signal?.throwIfAborted(); // not client-node's (or node-fetch's) AbortError
    throw err;
  }
}

function isRef(target: object): target is ObjectRef {
  return typeof (target as Partial<ObjectRef>).name === "string" || typeof (target as Partial<ObjectRef>).namespace === "string";
}

function checked(kind: PathNamedKind, verb: string, ref: ObjectRef): ObjectRef {
  if (
    typeof ref !== "object" ||
    typeof ref.name !== "string" ||
    ref.name === "" ||
    typeof ref.namespace !== "string" ||
    ref.namespace === ""
  ) {
    throw invalid(`cannot ${verb} a ${kind} without a namespace and a name`);
  }
  const helper = `${kind} ${verb}`;
  return {
    namespace: checkedNamespaceName(ref.namespace, { helper, field: "namespace" }),
    name: checkedObjectName(ref.name, kind, { helper, field: "name" }),
  };
}

function checkedNamespace(namespace: string, plural: string): string {
  if (typeof namespace !== "string" || namespace === "") throw invalid("list: namespace is empty (leave it out to list all namespaces)");
  return checkedNamespaceName(namespace, { helper: `list ${plural}`, field: "namespace" });
}

const describe = (ref: ObjectRef): string => `${ref.namespace}/${ref.name}`;

const invalid = (message: string): CocoonError => new CocoonError("ERR_INVALID_ARGUMENT", message);
