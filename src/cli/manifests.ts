import {
  Composer,
  type Document,
  LineCounter,
  type Node,
  type Pair,
  Parser,
  type Scalar,
  type YAMLMap,
  isMap,
  isScalar,
  isSeq,
} from "yaml";
import type { DocumentOptions, ParseOptions, SchemaOptions } from "yaml";
import { CliError } from "./args.js";
import type { FieldPath } from "./findings.js";
import { MAX_DEPTH, resolveAliases, tooDeepAt } from "./yaml-guard.js";
import { messageOf } from "../internal/message-of.js";

/** A named input text. */
export interface Source {
  /** The path as given on the command line (or found in a directory), or `<stdin>`. */
  readonly name: string;
  /** The whole text. */
  readonly text: string;
}

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
  /** The lines of keys written twice in its document (the last one wins, as in go-yaml). */
  readonly duplicateKeyLines: readonly number[];
}

// kubectl turns YAML into JSON with go-yaml v2 (YAML 1.1): y/yes/on/off are booleans, 0755 is
// octal, but timestamps and 1:20 stay strings. Keep the YAML 1.1 tags that go-yaml v2 resolves.
const DROPPED_TAGS = new Set(["timestamp", "binary", "omap", "pairs", "set"].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * The YAML options that read a manifest the way kubectl does (YAML 1.1 scalars). Duplicate keys
 * are found by {@link resolveAliases} in linear time (the `yaml` package's check is quadratic).
 */
export const KUBECTL_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.1",
  uniqueKeys: false,
  logLevel: "error",
  customTags: (tags) => tags.filter((tag) => typeof tag === "string" || (!DROPPED_TAGS.has(tag.tag) && tag.format !== "TIME")),
};

function isListDocument(value: unknown): value is { kind: string; items: unknown[] } {
  if (typeof value !== "object" || value === null) return false;
  const { kind, items } = value as { kind?: unknown; items?: unknown };
  return typeof kind === "string" && kind.endsWith("List") && Array.isArray(items);
}

const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

/** The pair of `map` whose key reads as `key`, through an index built once per mapping. */
function pairOf(map: YAMLMap, key: string): Pair | undefined {
  let index = pairIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const pair of map.items) index.set(String(isScalar(pair.key) ? pair.key.value : pair.key), pair);
    pairIndex.set(map, index);
  }
  return index.get(key);
}

/**
 * Finds where the field at `path` is written: the offset of its key in a mapping or of the item in
 * a sequence, and its node. A missing field stops at its deepest present ancestor (and no node).
 */
function locate(root: Node, path: FieldPath): { offset: number; node?: Node } {
  let node: unknown = root;
  let offset = root.range?.[0] ?? 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = pairOf(node, String(segment));
      if (pair === undefined) return { offset };
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
      node = node.items[segment];
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      return { offset };
    }
  }
  return { offset, node: node as Node };
}

/**
 * Parses a YAML (or JSON) stream into its Kubernetes objects, the way `kubectl apply -f` reads a
 * file: YAML 1.1 scalars, several documents, empty documents ignored, and a List (any kind ending
 * in `List` with an `items` array, as `kubectl get -o yaml` prints) flattened into its items.
 * Anchors are checked first, as go-yaml does: cycles and alias bombs are refused, never expanded.
 *
 * @param strictKeys - Refuse duplicate keys (kubectl's strict field validation); otherwise the last one wins.
 * @throws `CliError` `ERR_CLI_INPUT` on the first problem, as `FILE:LINE:COL: cannot parse YAML: ...`.
 */
export function parseManifests(source: Source, strictKeys = true): Manifest[] {
  const lineCounter = new LineCounter();
  const fail = (offset: number | undefined, message: string, cause?: unknown): never => {
    const where = offset === undefined ? "" : `:${lineCounter.linePos(offset).line}:${lineCounter.linePos(offset).col}`;
    throw new CliError("ERR_CLI_INPUT", `${source.name}${where}: cannot parse YAML: ${message}`, { cause });
  };
  const tokens = [...new Parser(lineCounter.addNewLine).parse(source.text)];
  for (const token of tokens) {
    const deep = tooDeepAt(token);
    if (deep !== undefined) fail(deep, `nested deeper than ${MAX_DEPTH} levels`);
  }
  const manifests: Manifest[] = [];
  const docs: Document[] = [...new Composer(KUBECTL_YAML_OPTIONS).compose(tokens)];
  for (const [index, doc] of docs.entries()) {
    const [error] = doc.errors;
    if (error !== undefined) fail(error.pos[0], error.message.split("\n")[0] ?? error.code, error);
    const contents = doc.contents;
    if (contents === null) continue;
    const { problem, duplicateKeys } = resolveAliases(doc);
    if (problem !== undefined) fail(problem.node.range?.[0], problem.message);
    const [duplicate] = duplicateKeys;
    if (strictKeys && duplicate !== undefined)
      fail(duplicate.range?.[0], `key ${JSON.stringify(String((duplicate as Scalar).value))} already set in map`);
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: -1 });
    } catch (err) {
      fail(contents.range?.[0], messageOf(err), err); // e.g. a merge key (<<) of something that is not a mapping
    }
    if (value === null || value === undefined) continue;
    const at = (base: FieldPath) => (path: FieldPath) => lineCounter.linePos(locate(contents, [...base, ...path]).offset).line;
    const duplicatesIn = (node: Node | undefined) =>
      duplicateKeys
        .map((key) => key.range?.[0] ?? 0)
        .filter((pos) => node?.range == null || (pos >= node.range[0] && pos < node.range[2]))
        .map((pos) => lineCounter.linePos(pos).line);
    const common = { file: source.name, document: index + 1 };
    if (isListDocument(value)) {
      value.items.forEach((item, i) => {
        const lineOf = at(["items", i]);
        const duplicateKeyLines = duplicatesIn(locate(contents, ["items", i]).node);
        manifests.push({ ...common, item: i, value: item, line: lineOf([]), lineOf, duplicateKeyLines });
      });
    } else {
      const lineOf = at([]);
      manifests.push({ ...common, value, line: lineOf([]), lineOf, duplicateKeyLines: duplicatesIn(contents) });
    }
  }
  return manifests;
}
