import type { z } from "zod";
import { propOf, stringAt } from "../../internal/safe-read.js";
import { UnexpectedObjectError } from "./unexpected-object-error.js";

/**
 * Parses what the API server returned for one object of `kind` with `schema`; never a cast.
 *
 * @throws {@link UnexpectedObjectError} naming the object (as far as it can be read) and the path of the first issue.
 * @internal
 */
export function parseServerObject<T>(schema: z.ZodType<T>, kind: string, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new UnexpectedObjectError(kind, stringAt(raw, "metadata", "namespace"), stringAt(raw, "metadata", "name"), result.error.issues, {
    cause: result.error,
  });
}

/**
 * Parses a list of `kind` objects with `schema`. When items do not parse, the error names the
 * first such item and carries its issues, with paths relative to the item.
 *
 * @throws {@link UnexpectedObjectError} for the first item that does not parse, or for the list itself.
 * @internal
 */
export function parseServerList<L>(schema: z.ZodType<L>, kind: string, raw: unknown): L {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const [field, index] = issues[0]?.path ?? [];
  if (field === "items" && typeof index === "number") {
    const item = propOf(propOf(raw, "items"), String(index));
    const own = issues
      .filter((issue) => issue.path[0] === "items" && issue.path[1] === index)
      .map((issue) => ({ ...issue, path: issue.path.slice(2) }));
    throw new UnexpectedObjectError(kind, stringAt(item, "metadata", "namespace"), stringAt(item, "metadata", "name"), own, {
      cause: result.error,
      listIndex: index,
    });
  }
  throw new UnexpectedObjectError(`${kind}List`, "", "", issues, { cause: result.error });
}
