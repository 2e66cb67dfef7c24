/**
 * A label selector as the API takes it: the API's own text as it is, or a map of labels that must
 * all equal, as `key=value` pairs joined by commas.
 *
 * @internal
 */
export function labelSelectorText(selector: string | Readonly<Record<string, string>>): string {
  if (typeof selector === "string") return selector;
  return Object.entries(selector)
    .map(([key, value]) => `${key}=${value}`)
    .join(",");
}
