/**
 * The JSON text of a list-map key, for comparing keys by value. It never throws and never
 * recurses, so a key nested 10,000 levels deep (the API server's limit) costs a loop, not the call
 * stack. Object keys are sorted, as Go's `encoding/json` sorts map keys.
 *
 * @internal
 */

/** A step of the walk: a value to print, or text to write once its siblings are done. */
type Step = { readonly value: unknown } | { readonly text: string } | { readonly leave: object };

/** The members of an array or object in print order; throws what the value's own traps throw. */
function membersOf(value: object): [key: string | undefined, member: unknown][] {
  if (Array.isArray(value)) return Array.from(value as readonly unknown[], (member) => [undefined, member]);
  const record = value as Record<string, unknown>;
  return Object.keys(record)
    .sort()
    .map((key) => [key, record[key]]);
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
  const out: string[] = [];
  const ancestors = new Set<object>();
  const steps: Step[] = [{ value }];
  try {
    for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
      if ("text" in step) out.push(step.text);
      else if ("leave" in step) ancestors.delete(step.leave);
      else if (typeof step.value !== "object" || step.value === null) {
        const text = scalarText(step.value);
        if (text === undefined) return undefined;
        out.push(text);
      } else {
        if (ancestors.has(step.value)) return undefined;
        ancestors.add(step.value);
        const array = Array.isArray(step.value);
        const members = membersOf(step.value);
        steps.push({ leave: step.value }, { text: array ? "]" : "}" });
        for (let i = members.length - 1; i >= 0; i--) {
          const [key, member] = members[i] ?? [];
          steps.push({ value: member });
          const label = key === undefined ? "" : `${JSON.stringify(key)}:`;
          steps.push({ text: i > 0 ? `,${label}` : label });
        }
        out.push(array ? "[" : "{");
      }
    }
  } catch {
    return undefined;
  }
  return out.join("");
}
