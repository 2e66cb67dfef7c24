import { type Document, LineCounter, type Node, type ParseOptions, type DocumentOptions, type SchemaOptions, parseAllDocuments } from "yaml";
import { CliError } from "./cli-error.js";
import { type FieldPath, lineOfField } from "./field-path.js";
import type { Source } from "./io.js";

/** One Kubernetes object of an input stream: a document, or an item of a List document. */
export interface Manifest {
  /** The source it was read from, as reported. */
  readonly file: string;
  /** The 1-based index of its document in the stream (empty documents count). */
  readonly document: number;
  /** Its index in `items` when it comes from a List document. */
  readonly item?: number;
  /** The object as plain JSON values. */
  readonly value: unknown;
  /** The 1-based line where it starts. */
  readonly line: number;
  /** The 1-based line of the field at `path` (relative to this object), or of its deepest present ancestor. */
  readonly lineOf: (path: FieldPath) => number;
}

// kubectl turns YAML into JSON with go-yaml v2 (YAML 1.1): y/yes/on/off are booleans, 0755 is
// octal, but timestamps and 1:20 stay strings. Keep the YAML 1.1 tags that go-yaml v2 resolves.
const DROPPED_TAGS = new Set(["timestamp", "binary", "omap", "pairs", "set"].map((t) => `tag:yaml.org,2002:${t}`));

/** The YAML options that read a manifest the way kubectl does (YAML 1.1 scalars, unique keys). */
export const KUBECTL_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.1",
  uniqueKeys: true,
  customTags: (tags) => tags.filter((tag) => typeof tag === "string" || (!DROPPED_TAGS.has(tag.tag) && tag.format !== "TIME")),
};

function isListDocument(value: unknown): value is { kind: string; items: unknown[] } {
  if (typeof value !== "object" || value === null) return false;
  const { kind, items } = value as { kind?: unknown; items?: unknown };
  return typeof kind === "string" && kind.endsWith("List") && Array.isArray(items);
}

function firstError(source: Source, doc: Document): CliError | undefined {
  const error = doc.errors[0];
  if (error === undefined) return undefined;
  const where = error.linePos ? `${source.name}:${error.linePos[0].line}:${error.linePos[0].col}` : source.name;
  const message = error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? error.code;
  return new CliError("ERR_CLI_INPUT", `${where}: cannot parse YAML: ${message}`, { cause: error });
}

/**
 * Parses a YAML (or JSON) stream into its Kubernetes objects, the way `kubectl apply -f` reads a
 * file: YAML 1.1 scalars, several documents, empty documents ignored, and a List (any kind ending
 * in `List` with an `items` array, as `kubectl get -o yaml` prints) flattened into its items.
 *
 * @throws `CliError` `ERR_CLI_INPUT` on the first syntax error (or duplicate key), as `FILE:LINE:COL: ...`.
 */
export function parseManifests(source: Source): Manifest[] {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(source.text, { ...KUBECTL_YAML_OPTIONS, lineCounter });
  const manifests: Manifest[] = [];
  for (const [index, doc] of Array.from(docs).entries()) {
    const error = firstError(source, doc);
    if (error !== undefined) throw error;
    const contents = doc.contents as Node | null;
    if (contents === null) continue;
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    const at = (base: FieldPath) => (path: FieldPath) => lineOfField(doc, contents, lineCounter, [...base, ...path]);
    const common = { file: source.name, document: index + 1 };
    if (isListDocument(value)) {
      value.items.forEach((item, i) => {
        const lineOf = at(["items", i]);
        manifests.push({ ...common, item: i, value: item, line: lineOf([]), lineOf });
      });
    } else {
      const lineOf = at([]);
      manifests.push({ ...common, value, line: lineOf([]), lineOf });
    }
  }
  return manifests;
}
