// Finds the first JSON value in a text, as Go's `json.Decoder.Decode` reads it (internal).

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\r";

/**
 * Returns the text of the first top-level JSON object, or `null` for a top-level `null`;
 * anything after it is ignored, as Go's decoder does.
 *
 * Throws an `Error` describing the problem for an empty text, a value that is not an object or
 * `null` (Go cannot decode it into a struct), or an object that never closes. The object text is
 * not validated here; `JSON.parse` does that.
 */
export function firstJSONObject(text: string): string | null {
  let start = 0;
  while (isSpace(text[start])) start++;
  const first = text[start];
  if (first === undefined) throw new Error("EOF");
  if (first === "n") {
    if (text.startsWith("null", start)) return null;
    throw new Error("invalid JSON value");
  }
  if (first !== "{") throw new Error("the body is not a JSON object");
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  throw new Error("unexpected EOF");
}
