import type { z } from "zod";
import { ExportFormatError } from "./export-format-error.js";

/** `config.image_blob_ids["a.b"]`-style text of a zod path, under `prefix`. */
function dotted(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    const name = String(key);
    out +=
      typeof key === "number"
        ? `[${name}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/u.test(name)
          ? `${out === "" ? "" : "."}${name}`
          : `[${JSON.stringify(name)}]`;
  }
  return out;
}

/**
 * The first issue of a zod failure as an {@link ExportFormatError} on `entry`: its field is the
 * issue's path under `prefix` (an unknown key names that key), and the message says what is wrong.
 */
export function issueError(entry: string, error: z.ZodError, prefix = ""): ExportFormatError {
  const issue = error.issues[0];
  if (issue === undefined) return new ExportFormatError(entry, prefix, `${entry}: ${prefix} is malformed`, { cause: error });
  const unknownKey = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const field = dotted(prefix, unknownKey === undefined ? issue.path : [...issue.path, unknownKey]);
  const what = unknownKey === undefined ? issue.message : "is not a field of the format";
  return new ExportFormatError(entry, field, `${entry}: ${field === "" ? "the entry" : field} ${what}`, { cause: error });
}
