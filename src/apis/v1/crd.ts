import { COCOONHIBERNATION_CRD_JSON, COCOONSET_CRD_JSON } from "./crd-data.generated.js";
import type { CustomResourceDefinition } from "./crd-types.js";

/**
 * The CocoonSet CustomResourceDefinition (`cocoonsets.cocoonset.cocoonstack.io`), generated at build time from
 * `CocoonSetSchema` (the same object whatever zod is installed); equal in meaning to controller-gen's output for the Go types (names,
 * short names `cs`/`cocoonsets`, category `cocoon`, printer columns, status subresource, defaults,
 * enums, bounds, patterns, list types, int-or-string quantities, CEL rules). A fresh plain object
 * with JSON field names, ready to send; `crds/cocoonset.cocoonstack.io_cocoonsets.yaml` is its YAML.
 * Treat it as read-only (`structuredClone` it before editing).
 *
 * @example
 * ```ts
 * // installCRDs sends the JSON whole; client-node's typed ApiextensionsV1Api would drop
 * // every x-kubernetes-* field (the CEL rules and int-or-string among them).
 * import { installCRDs } from "@cocoonstack/cocoon-common/k8s";
 * await installCRDs(kubeConfig);
 * ```
 */
export const cocoonSetCRD: CustomResourceDefinition = /* @__PURE__ */ JSON.parse(COCOONSET_CRD_JSON) as CustomResourceDefinition;

/**
 * The CocoonHibernation CustomResourceDefinition (`cocoonhibernations.cocoonset.cocoonstack.io`),
 * generated at build time from `CocoonHibernationSchema` (short names `ch`/`cocoonhibernations`). Treat it
 * as read-only.
 */
export const cocoonHibernationCRD: CustomResourceDefinition = /* @__PURE__ */ JSON.parse(
  COCOONHIBERNATION_CRD_JSON,
) as CustomResourceDefinition;
