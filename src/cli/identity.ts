import type { Manifest } from "./yaml-stream.js";

/** Who an object says it is; `null` for whatever it leaves out (or gives as a non-string). */
export interface ObjectIdentity {
  /** `kind`. */
  readonly kind: string | null;
  /** `metadata.namespace`. */
  readonly namespace: string | null;
  /** `metadata.name`. */
  readonly name: string | null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Reads `kind`, `metadata.namespace` and `metadata.name` from any value, never throwing. */
export function identityOf(value: unknown): ObjectIdentity {
  const obj = (typeof value === "object" && value !== null ? value : {}) as { kind?: unknown; metadata?: unknown };
  const meta = (typeof obj.metadata === "object" && obj.metadata !== null ? obj.metadata : {}) as Record<string, unknown>;
  return { kind: stringOrNull(obj.kind), namespace: stringOrNull(meta.namespace), name: stringOrNull(meta.name) };
}

/** Says where a manifest sits in its stream: `document 2`, or `document 1, items[3]` inside a List. */
export function locationOf(manifest: Manifest): string {
  return manifest.item === undefined ? `document ${manifest.document}` : `document ${manifest.document}, items[${manifest.item}]`;
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

/** Formats a finding as one greppable line: `FILE:LINE: document N (KIND NS/NAME): PATH: MESSAGE`. */
export function formatFinding(manifest: Manifest, finding: Finding, id: ObjectIdentity = identityOf(manifest.value)): string {
  const path = finding.path === "" ? "" : `${finding.path}: `;
  return `${manifest.file}:${finding.line}: ${describeManifest(manifest, id)}: ${path}${finding.message}`;
}

/** Where a manifest comes from, as `--output json` reports it: `{ file, document }`, plus `item` inside a List. */
export function sourceOf(manifest: Manifest): { file: string; document: number; item?: number } {
  return { file: manifest.file, document: manifest.document, ...(manifest.item === undefined ? {} : { item: manifest.item }) };
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
