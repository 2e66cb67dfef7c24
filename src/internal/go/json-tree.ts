// The first JSON value of a text, read as Go's json.Decoder reads it: strict syntax, nesting up to
// 10,000 levels, escapes decoded with U+FFFD for lone surrogates, every member kept in order
// (duplicates too) with the span of text it came from. The value is checked whole (one scan for
// its end and depth, V8's parser for its syntax); a container's members are read only when asked
// for, one level at a time, so a large `object` that is echoed as text is never built as a tree.
import { readString, unexpected } from "./json-unquote.js";

/** One JSON value and the span `[start, end)` of the text it was read from. */
export type JSONNode = { readonly start: number; readonly end: number } & (
  | { readonly kind: "null" | "true" | "false" }
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "array"; readonly items: readonly JSONNode[] }
  | { readonly kind: "object"; readonly members: readonly (readonly [string, JSONNode])[] }
);

/** Go's `maxNestingDepth`: a value nested deeper is a syntax error, not a stack overflow. */
export const MAX_NESTING_DEPTH = 10_000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Reads the first JSON value of `text`; anything after it is ignored, as Go's decoder does.
 *
 * @throws `SyntaxError`: `unexpected EOF`, `exceeded max depth`, or V8's reason for other bad syntax.
 * @internal
 */
export function parseFirstJSONValue(text: string): JSONNode {
  return readFirstJSONValue(text).tree;
}

/**
 * {@link parseFirstJSONValue}, and the value as `JSON.parse` reads it (repeated keys: the last).
 *
 * @internal
 */
export function readFirstJSONValue(text: string): { tree: JSONNode; value: unknown } {
  const start = skipSpace(text, 0);
  const c = text[start];
  if (c !== "{" && c !== "[") {
    const [tree, end] = readScalar(text, start);
    return { tree, value: JSON.parse(text.slice(start, end)) };
  }
  const ends = new Map<number, number>();
  const end = containerEnd(text, start, ends);
  const value: unknown = JSON.parse(text.slice(start, end)); // the syntax, checked once for the whole value
  return { tree: new LazyContainer(text, start, end, ends), value };
}

/** How deep the first scan records where containers end, so that reading a level never scans again. */
const RECORDED_DEPTH = 8;

/**
 * The end of the container opening at `pos`: strings skipped, brackets counted and checked for
 * depth; `ends` gets the end of every container in the first levels, by start.
 */
function containerEnd(text: string, pos: number, ends: Map<number, number>): number {
  const open: number[] = [];
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (open.push(i) > MAX_NESTING_DEPTH) throw new SyntaxError("exceeded max depth");
    } else if (c === 0x7d || c === 0x5d) {
      const start = open.pop() as number;
      if (open.length < RECORDED_DEPTH) ends.set(start, i + 1);
      if (open.length === 0) return i + 1;
    }
  }
  throw new SyntaxError("unexpected EOF");
}

/** A container whose members (or items) are read on first use, from text already checked. */
class LazyContainer {
  readonly kind: "object" | "array";
  readonly start: number;
  readonly end: number;
  readonly #text: string;
  readonly #ends: ReadonlyMap<number, number>;
  #children: [string, JSONNode][] | undefined;
  constructor(text: string, start: number, end: number, ends: ReadonlyMap<number, number>) {
    this.kind = text[start] === "{" ? "object" : "array";
    this.start = start;
    this.end = end;
    this.#text = text;
    this.#ends = ends;
  }
  get members(): readonly (readonly [string, JSONNode])[] {
    return (this.#children ??= readChildren(this.#text, this.start, this.#ends));
  }
  get items(): readonly JSONNode[] {
    return this.members.map(([, node]) => node);
  }
}

/** The members of the container at `start` (keys `""` for array items); nested containers stay unread. */
function readChildren(text: string, start: number, ends: ReadonlyMap<number, number>): [string, JSONNode][] {
  const isObject = text[start] === "{";
  const out: [string, JSONNode][] = [];
  let pos = skipSpace(text, start + 1);
  if (text[pos] === (isObject ? "}" : "]")) return out;
  for (;;) {
    let key = "";
    if (isObject) {
      [key, pos] = readString(text, pos);
      pos = skipSpace(text, skipSpace(text, pos) + 1); // past the colon
    }
    let node: JSONNode;
    const c = text[pos];
    if (c === "{" || c === "[") {
      const end = ends.get(pos) ?? containerEnd(text, pos, new Map());
      node = new LazyContainer(text, pos, end, ends);
      pos = end;
    } else {
      [node, pos] = readScalar(text, pos);
    }
    out.push([key, node]);
    pos = skipSpace(text, pos);
    if (text[pos] !== ",") return out;
    pos = skipSpace(text, pos + 1);
  }
}

function readScalar(text: string, pos: number): [JSONNode, number] {
  const c = text[pos];
  if (c === undefined) throw new SyntaxError("unexpected EOF");
  if (c === '"') {
    const [value, end] = readString(text, pos);
    return [{ kind: "string", value, start: pos, end }, end];
  }
  for (const literal of ["null", "true", "false"] as const) {
    if (text.startsWith(literal, pos)) return [{ kind: literal, start: pos, end: pos + literal.length }, pos + literal.length];
  }
  NUMBER.lastIndex = pos;
  const number = NUMBER.exec(text);
  if (number === null) throw unexpected(text, pos, "looking for beginning of value");
  const end = pos + number[0].length;
  return [{ kind: "number", text: number[0], start: pos, end }, end];
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    pos++;
  }
  return pos;
}
