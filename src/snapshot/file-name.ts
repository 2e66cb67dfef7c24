/**
 * Why `name` is not a single, clean file name (one entry of the flat directory `cocoon snapshot
 * import` writes into), or `undefined` when it is one.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (name.startsWith("/")) return "it is an absolute path";
  if (name === "." || name === "..") return `it is ${JSON.stringify(name)}`;
  if (name.includes("/")) return 'it contains "/"';
  if (name.includes("\\")) return "it contains a backslash";
  if (name.includes("\0")) return "it contains a NUL byte";
  return undefined;
}
