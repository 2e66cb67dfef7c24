import { type Alias, type CST, type Document, type Node, isAlias, isMap, isScalar, isSeq } from "yaml";

/**
 * The deepest nesting of collections a document may have. go-yaml stops at 10,000; the `yaml`
 * composer and V8 run out of stack near 800, and V8 may abort the process (not throw) when a
 * regular expression is compiled that close to the limit, so the CLI refuses far before.
 */
export const MAX_DEPTH = 256;

const COLLECTIONS: ReadonlySet<string> = new Set(["block-map", "block-seq", "flow-collection"]);

interface TokenLike {
  readonly type?: string;
  readonly offset?: number;
  readonly value?: unknown;
  readonly key?: unknown;
  readonly items?: unknown;
}

/**
 * Finds the first collection nested deeper than {@link MAX_DEPTH} in a parsed (not yet composed)
 * document, without recursion: returns its offset, or `undefined` when the document is shallow enough.
 */
export function tooDeepAt(token: CST.Token): number | undefined {
  const stack: [TokenLike, number][] = [[token, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, parentDepth] = top;
    const depth = node.type !== undefined && COLLECTIONS.has(node.type) ? parentDepth + 1 : parentDepth;
    if (depth > MAX_DEPTH) return node.offset;
    for (const child of [node.key, node.value, ...(Array.isArray(node.items) ? (node.items as unknown[]) : [])]) {
      if (typeof child === "object" && child !== null) stack.push([child, depth]);
    }
  }
  return undefined;
}

/** What is wrong with a document's anchors and aliases, and where. */
export interface AliasProblem {
  /** The node at fault. */
  readonly node: Node;
  /** go-yaml's words: `anchor 'n' value contains itself`, `document contains excessive aliasing`, ... */
  readonly message: string;
}

/** go-yaml v2's `allowedAliasRatio`: 99% of decodes may come from aliases up to 400,000, 10% from 4,000,000. */
function allowedAliasRatio(decodes: number): number {
  if (decodes <= 400_000) return 0.99;
  if (decodes >= 4_000_000) return 0.1;
  return 0.99 - 0.89 * ((decodes - 400_000) / 3_600_000);
}

const MERGE_KEY = "<<";

/**
 * Checks a document's anchors, aliases and keys the way go-yaml v2 (and so kubectl) does before
 * its value is built, then replaces each alias by the node it names, in place, so building the
 * value costs what go-yaml's decoding costs (the `yaml` package looks each alias up in a list of
 * all anchors). Refused: an alias of an unknown anchor, an alias inside the node it names (a cycle,
 * which would make a cyclic object), a mapping key that is a collection, and alias expansion beyond
 * go-yaml's ratio (billion laughs). Keys written twice in one mapping are returned. Linear in the
 * document's nodes.
 *
 * @returns The first problem, or the keys written twice (the second of each).
 */
export function resolveAliases(doc: Document): { problem?: AliasProblem; duplicateKeys: Node[] } {
  const anchors = new Map<string, Node>();
  const open = new Set<Node>();
  const sizes = new Map<Node, number>();
  const duplicateKeys: Node[] = [];
  let decodes = 0;
  let aliased = 0;
  const fail = (node: Node, message: string): never => {
    throw Object.assign(new Error(message), { problem: { node, message } });
  };
  const resolve = (alias: Alias): Node => {
    const target = anchors.get(alias.source);
    if (target === undefined) return fail(alias, `unknown anchor '${alias.source}' referenced`);
    if (open.has(target)) return fail(alias, `anchor '${alias.source}' value contains itself`);
    const size = sizes.get(target) ?? 1;
    decodes += 1 + size;
    aliased += size;
    if (aliased > 100 && decodes > 1000 && aliased / decodes > allowedAliasRatio(decodes))
      fail(alias, "document contains excessive aliasing");
    return target;
  };
  // Visits `node` (an alias already resolved) and returns how many nodes decoding it costs.
  const visit = (node: unknown): number => {
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return 0;
    if (sizes.has(node)) return sizes.get(node) ?? 0;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    decodes += 1;
    let size = 1;
    open.add(node);
    if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (isAlias(item)) node.items[i] = resolve(item);
        size += visit(node.items[i]);
      });
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isAlias(pair.key)) pair.key = resolve(pair.key);
        if (!isScalar(pair.key) && pair.key !== null) fail(pair.key as Node, "invalid map key: a collection");
        const key = isScalar(pair.key) ? `${typeof pair.key.value}:${String(pair.key.value)}` : "null";
        if (seen.has(key) && key !== `string:${MERGE_KEY}` && isScalar(pair.key)) duplicateKeys.push(pair.key);
        seen.add(key);
        size += visit(pair.key);
        if (isAlias(pair.value)) pair.value = resolve(pair.value);
        size += visit(pair.value);
      }
    }
    open.delete(node);
    sizes.set(node, size);
    return size;
  };
  try {
    if (isAlias(doc.contents)) doc.contents = resolve(doc.contents);
    visit(doc.contents);
  } catch (err) {
    const { problem } = err as { problem?: AliasProblem };
    if (problem === undefined) throw err;
    return { problem, duplicateKeys };
  }
  return { duplicateKeys };
}
