import type { CocoonHibernation, CocoonHibernationInput, CocoonHibernationList } from "../../apis/v1/cocoonhibernation-types.js";
import type { CocoonSet, CocoonSetInput, CocoonSetList } from "../../apis/v1/cocoonset-types.js";
import { Kind } from "../../apis/v1/groupversion-info.js";
import { resourceClient, type CocoonResourceClient, type ResourceClients } from "./resource-client.js";

/** The typed client of CocoonSets; see {@link cocoonSetClient}. */
export type CocoonSetClient = CocoonResourceClient<CocoonSet, CocoonSetInput, CocoonSetList>;

/** The typed client of CocoonHibernations; see {@link cocoonHibernationClient}. */
export type CocoonHibernationClient = CocoonResourceClient<CocoonHibernation, CocoonHibernationInput, CocoonHibernationList>;

/**
 * Makes the typed client of CocoonSets on `clients.customObjects`: get, list, create, patch,
 * patchStatus and delete, each result parsed with `CocoonSetSchema` (lists with `CocoonSetListSchema`).
 *
 * {@link createClients} already holds one, as `clients.cocoonSets`, on its shared keep-alive connections.
 *
 * @throws {@link UnexpectedObjectError} (from each call) when the server returns a set that does
 * not parse, or answers with another object than the one asked for (kind, apiVersion, namespace,
 * name, or the uid of the object patched); client-node's `ApiException` when a request is refused;
 * {@link CocoonError} `ERR_INVALID_ARGUMENT`, before anything is sent, for a reference without a
 * valid namespace (a DNS-1123 label) or name (a DNS-1123 subdomain).
 * @example
 * ```ts
 * const sets = cocoonSetClient({ customObjects: kubeConfig.makeApiClient(CustomObjectsApi) });
 * const set = await sets.get({ namespace: "demo", name: "sandbox" });
 * set.spec?.agent.mode; // => "clone": typed, with the CRD's defaults
 * ```
 */
export function cocoonSetClient(clients: ResourceClients): CocoonSetClient {
  return resourceClient(clients, {
    kind: Kind.CocoonSet,
    schemas: async () => {
      const { CocoonSetSchema, CocoonSetListSchema } = await import("../../apis/v1/cocoonset-types.js");
      return { schema: CocoonSetSchema, listSchema: CocoonSetListSchema };
    },
  });
}

/**
 * Makes the typed client of CocoonHibernations on `clients.customObjects`, results parsed with
 * `CocoonHibernationSchema`; otherwise as {@link cocoonSetClient}. {@link createClients} holds one
 * as `clients.cocoonHibernations`.
 *
 * @example
 * ```ts
 * const nap = await clients.cocoonHibernations.create({
 *   apiVersion: API_VERSION,
 *   kind: Kind.CocoonHibernation,
 *   metadata: { name: "nap", namespace: "demo" },
 *   spec: { podRef: { name: "sandbox-0" }, desire: HibernationDesire.Hibernate },
 * });
 * ```
 */
export function cocoonHibernationClient(clients: ResourceClients): CocoonHibernationClient {
  return resourceClient(clients, {
    kind: Kind.CocoonHibernation,
    schemas: async () => {
      const { CocoonHibernationSchema, CocoonHibernationListSchema } = await import("../../apis/v1/cocoonhibernation-types.js");
      return { schema: CocoonHibernationSchema, listSchema: CocoonHibernationListSchema };
    },
  });
}
