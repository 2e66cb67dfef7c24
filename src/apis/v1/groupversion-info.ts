import { pathOf } from "../../internal/safe-read.js";

/** The API group of every cocoon custom resource (Go `GroupVersion.Group`). */
export const GROUP = "cocoonset.cocoonstack.io";

/** The only served and stored version of the cocoon custom resources (Go `GroupVersion.Version`). */
export const VERSION = "v1";

/** The `apiVersion` every CocoonSet and CocoonHibernation carries: `cocoonset.cocoonstack.io/v1`. */
export const API_VERSION = `${GROUP}/${VERSION}`;

/** The kinds this group version registers (Go `AddToScheme`), named after themselves. */
export const Kind = {
  CocoonSet: "CocoonSet",
  CocoonSetList: "CocoonSetList",
  CocoonHibernation: "CocoonHibernation",
  CocoonHibernationList: "CocoonHibernationList",
} as const;
/** One of the {@link Kind} values. */
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * The REST resource name (plural) of each top-level kind, as used in URLs and RBAC rules.
 *
 * @example
 * ```ts
 * const raw = await customObjects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: Plural.CocoonSet, name });
 * const set = CocoonSetSchema.parse(raw);
 * ```
 */
export const Plural = {
  CocoonSet: "cocoonsets",
  CocoonHibernation: "cocoonhibernations",
} as const;
/** One of the {@link Plural} values. */
export type Plural = (typeof Plural)[keyof typeof Plural];

/** The type meta of a cocoon object: just enough to tell kinds apart. */
export interface TypeMeta<K extends Kind> {
  /** Always {@link API_VERSION}. */
  apiVersion: typeof API_VERSION;
  /** The object's kind. */
  kind: K;
}

/** Never throws: a value that is not an object, or whose fields cannot be read, has no type meta. */
function hasTypeMeta(obj: unknown, kind: Kind): boolean {
  return typeof obj === "object" && pathOf(obj, "apiVersion") === API_VERSION && pathOf(obj, "kind") === kind;
}

/**
 * Reports whether `obj` declares itself a CocoonSet (`apiVersion` and `kind` only; the body is not
 * validated, parse it with `CocoonSetSchema` for that). Never throws.
 *
 * @example
 * ```ts
 * if (isCocoonSet(event.object)) console.log(event.object.kind); // "CocoonSet"
 * ```
 */
export function isCocoonSet(obj: unknown): obj is TypeMeta<typeof Kind.CocoonSet> {
  return hasTypeMeta(obj, Kind.CocoonSet);
}

/** Reports whether `obj` declares itself a CocoonHibernation (`apiVersion` and `kind` only). Never throws. */
export function isCocoonHibernation(obj: unknown): obj is TypeMeta<typeof Kind.CocoonHibernation> {
  return hasTypeMeta(obj, Kind.CocoonHibernation);
}
