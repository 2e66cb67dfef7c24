import { type CST, type Document, type Node, isAlias, isMap, isPair, isScalar, isSeq } from "yaml";

/**
 * The deepest nesting of collections a document may have. go-yaml stops at 10,000; the `yaml`
 * composer and V8 run out of stack near 800, and V8 may abort the process (not throw) when a
 * regular expression is compiled that close to the limit, so the CLI refuses far before.
 */
export const MAX_DEPTH = 256;

const COLLECTIONS: ReadonlySet<string> = new Set(["block-map", "block-seq", "flow-collection"]);

type TokenLike = { readonly type?: string; readonly offset?: number; readonly value?: unknown; readonly key?: unknown; readonly items?: unknown };

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
      if (typeof child === "object" && child !== null) stack.push([child as TokenLike, depth]);
    }
  }
  return undefined;
}

/** What is wrong with a document's aliases, and where. */
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

/**
 * Checks a document's anchors and aliases the way go-yaml v2 (and so kubectl) does before its
 * value is built: an alias of an unknown anchor, an alias inside the node it names (a cycle, which
 * would make a cyclic object), a mapping key that is a collection, and alias expansion beyond
 * go-yaml's ratio (billion laughs) are refused. Linear in the document's nodes.
 *
 * @returns The first problem and, when there is none, where each alias points.
 */
export function checkAliases(doc: Document): { problem?: AliasProblem; targets: Map<Node, Node> } {
  const anchors = new Map<string, Node>();
  const open = new Set<Node>();
  const sizes = new Map<Node, number>();
  const targets = new Map<Node, Node>();
  let decodes = 0;
  let aliased = 0;
  const fail = (node: Node, message: string): never => {
    throw Object.assign(new Error(message), { problem: { node, message } });
  };
  // Returns how many nodes decoding `node` costs, alias expansions included.
  const visit = (node: unknown, isKey = false): number => {
    if (isPair(node)) return visit(node.key, true) + visit(node.value);
    if (!isScalar(node) && !isMap(node) && !isSeq(node) && !isAlias(node)) return 0;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) return fail(node, `unknown anchor '${node.source}' referenced`);
      if (open.has(target)) return fail(node, `anchor '${node.source}' value contains itself`);
      if (isKey && !isScalar(target)) return fail(node, "invalid map key: a collection");
      targets.set(node, target);
      const size = sizes.get(target) ?? 1;
      decodes += 1 + size;
      aliased += size;
      if (aliased > 100 && decodes > 1000 && aliased / decodes > allowedAliasRatio(decodes)) fail(node, "document contains excessive aliasing");
      return 1 + size;
    }
    if (isKey && !isScalar(node)) return fail(node, "invalid map key: a collection");
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    decodes += 1;
    let size = 1;
    if (isMap(node) || isSeq(node)) {
      open.add(node);
      for (const item of node.items as unknown[]) size += visit(item);
      open.delete(node);
    }
    sizes.set(node, size);
    return size;
  };
  try {
    visit(doc.contents);
  } catch (err) {
    const { problem } = err as { problem?: AliasProblem };
    if (problem === undefined) throw err;
    return { problem, targets };
  }
  return { targets };
}
