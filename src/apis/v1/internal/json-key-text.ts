/**
 * The JSON text of a list-map key, for comparing keys by value. It never throws and never
 * recurses, so a key nested 10,000 levels deep (the API server's limit) costs a loop, not the call
 * stack. Object keys are sorted, as Go's `encoding/json` sorts map keys.
 *
 * @internal
 */

/** An array or object being printed: its sorted keys (`undefined` for an array) and the next member. */
interface Frame {
  readonly value: object;
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  index: number;
}

/** Opens `value` for printing; throws what the value's own traps throw. */
function frameOf(value: object): Frame {
  if (Array.isArray(value)) return { value, keys: undefined, length: (value as readonly unknown[]).length, index: 0 };
  const keys = Object.keys(value).sort();
  return { value, keys, length: keys.length, index: 0 };
}

/** The text of a scalar; `undefined` for a value JSON cannot hold (a symbol, a function, `NaN`). */
function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : undefined;
    case "bigint":
    case "boolean":
      return String(value);
    default:
      return value === null ? "null" : undefined;
  }
}

/**
 * Returns the JSON text of `value`, or `undefined` when it has none: a cycle, a symbol, a function,
 * `undefined`, a non-finite number, or a getter or proxy that throws. A `bigint` prints its digits.
 */
export function jsonKeyText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return scalarText(value);
  const out: string[] = [];
  const open = new Set<object>();
  const frames: Frame[] = [];
  try {
    for (let next: unknown = value; ;) {
      if (typeof next !== "object" || next === null) {
        const text = scalarText(next);
        if (text === undefined) return undefined;
        out.push(text);
      } else {
        if (open.has(next)) return undefined;
        open.add(next);
        const frame = frameOf(next);
        frames.push(frame);
        out.push(frame.keys === undefined ? "[" : "{");
      }
      // Close the finished frames, then take the next member of the innermost open one.
      for (let frame = frames.at(-1); ; frame = frames.at(-1)) {
        if (frame === undefined) return out.join("");
        if (frame.index < frame.length) {
          const i = frame.index++;
          const key = frame.keys?.[i];
          if (i > 0) out.push(",");
          if (key !== undefined) out.push(JSON.stringify(key), ":");
          next = key === undefined ? (frame.value as readonly unknown[])[i] : (frame.value as Record<string, unknown>)[key];
          break;
        }
        frames.pop();
        open.delete(frame.value);
        out.push(frame.keys === undefined ? "]" : "}");
      }
    }
  } catch {
    return undefined;
  }
}
