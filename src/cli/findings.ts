import type { Manifest } from "./manifests.js";

/** A field path from an object's root: keys and list indices, as zod reports them. */
export type FieldPath = readonly PropertyKey[];

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a field path the way the API server does: `spec.toolboxes[0].name`; keys that are not
 * plain words are bracketed, as in `metadata.annotations[vm.cocoonstack.io/hibernate]`. The
 * root is `""`.
 *
 * @example
 * ```ts
 * formatFieldPath(["spec", "toolboxes", 0, "name"]); // => "spec.toolboxes[0].name"
 * ```
 */
export function formatFieldPath(path: FieldPath): string {
  let text = "";
  for (const segment of path) {
    const key = String(segment);
    if (typeof segment === "number") text += `[${key}]`;
    else if (PLAIN_KEY.test(key)) text += text === "" ? key : `.${key}`;
    else text += `[${key}]`;
  }
  return text;
}

/** Who an object says it is; `null` for whatever it leaves out (or gives as a non-string). */
export interface ObjectIdentity {
  /** `kind`. */
  readonly kind: string | null;
  /** `metadata.namespace`. */
  readonly namespace: string | null;
  /** `metadata.name`. */
  readonly name: string | null;
}

function ownString(obj: unknown, key: string): string | null {
  if (typeof obj !== "object" || obj === null || !Object.hasOwn(obj, key)) return null;
  const value = (obj as Record<string, unknown>)[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** Reads `kind`, `metadata.namespace` and `metadata.name` from any value, never throwing. */
export function identityOf(value: unknown): ObjectIdentity {
  const meta =
    typeof value === "object" && value !== null && Object.hasOwn(value, "metadata") ? (value as { metadata: unknown }).metadata : undefined;
  return { kind: ownString(value, "kind"), namespace: ownString(meta, "namespace"), name: ownString(meta, "name") };
}

/** One thing wrong with an object, located. */
export interface Finding {
  /** The field path (`spec.agent.image`); `""` for the object itself. */
  readonly path: string;
  /** The 1-based line. */
  readonly line: number;
  /** What is wrong. */
  readonly message: string;
}

/** Says where a manifest sits in its stream: `document 2`, or `document 1, items[3]` inside a List. */
export function locationOf(manifest: Manifest): string {
  return manifest.item === undefined ? `document ${manifest.document}` : `document ${manifest.document}, items[${manifest.item}]`;
}

/**
 * Names a manifest in reports: `document 2 (CocoonSet default/demo)`, `document 1, items[3] (Pod
 * demo-0)`, or just `document 4` when it has no kind.
 */
export function describeManifest(manifest: Manifest, id: ObjectIdentity = identityOf(manifest.value)): string {
  const where = locationOf(manifest);
  if (id.kind === null) return where;
  const name = id.name === null ? "" : ` ${id.namespace === null ? "" : `${id.namespace}/`}${id.name}`;
  return `${where} (${id.kind}${name})`;
}

/** Formats a finding as one greppable line: `FILE:LINE: document N (KIND NS/NAME): PATH: MESSAGE`. */
export function formatFinding(manifest: Manifest, finding: Finding, id: ObjectIdentity = identityOf(manifest.value)): string {
  const path = finding.path === "" ? "" : `${finding.path}: `;
  return `${manifest.file}:${finding.line}: ${describeManifest(manifest, id)}: ${path}${finding.message}`;
}

/** Where a manifest comes from, as `--output json` reports it: `{ file, document }`, plus `item` inside a List. */
export function sourceOf(manifest: Manifest): { file: string; document: number; item?: number } {
  return { file: manifest.file, document: manifest.document, ...(manifest.item === undefined ? {} : { item: manifest.item }) };
}
