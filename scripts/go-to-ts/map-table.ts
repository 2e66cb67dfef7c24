/**
 * Reads and rewrites `docs/go-to-ts.md`, the Go → TS map. The markdown tables there are the single
 * source: one table per Go package under a `## \`<package>\`` heading, one row per Go identifier.
 *
 * | Go | Go file | TS import | TS name | TS file | Note |
 *
 * TS name holds one or more code spans separated by commas: `readHibernateState` (a value),
 * `type VMSpec` (a type) or `Annotation.Hibernate` (a member of an exported object). A Go
 * identifier with no TS twin has `—` there and its reason in Note.
 */

/** One TS name of a row. */
export interface TsName {
  readonly kind: "value" | "type" | "member";
  /** The exported name: `readHibernateState`, `VMSpec`, `Annotation`. */
  readonly name: string;
  /** For a member: the key inside the exported object (`Hibernate`). */
  readonly member?: string;
}

/** One row of the map. */
export interface MapRow {
  readonly line: number;
  readonly pkg: string;
  readonly go: string;
  readonly goFile: string;
  /** package.json subpath (`./meta`), or "" when there is no TS twin. */
  readonly entry: string;
  readonly tsNames: readonly TsName[];
  readonly tsFiles: readonly string[];
  readonly note: string;
}

export const MAP_HEADER = "| Go | Go file | TS import | TS name | TS file | Note |";
const ABSENT = "—";

const stripCode = (cell: string): string => cell.trim().replace(/^`(.*)`$/, "$1");
const list = (cell: string): string[] => (cell.trim() === "" || cell.trim() === ABSENT ? [] : cell.split(",").map(stripCode));

function parseTsName(text: string): TsName {
  if (text.startsWith("type ")) return { kind: "type", name: text.slice(5) };
  const dot = text.indexOf(".");
  return dot === -1 ? { kind: "value", name: text } : { kind: "member", name: text.slice(0, dot), member: text.slice(dot + 1) };
}

/** Splits a table line into its cells, without the outer pipes. */
function cells(line: string): string[] {
  return line
    .slice(1, line.endsWith("|") ? -1 : undefined)
    .split(" | ")
    .map((c) => c.trim());
}

/** Every row of every map table, with the Go package of the heading above it. */
export function parseMap(markdown: string): MapRow[] {
  const rows: MapRow[] = [];
  let pkg = "";
  let inTable = false;
  markdown.split("\n").forEach((line, index) => {
    const heading = /^## `([^`]+)`/.exec(line);
    if (heading?.[1] !== undefined) pkg = heading[1];
    if (line === MAP_HEADER) inTable = true;
    else if (!line.startsWith("|")) inTable = false;
    if (!inTable || line === MAP_HEADER || line.startsWith("|---")) return;
    const [go = "", goFile = "", entry = "", tsName = "", tsFile = "", note = ""] = cells(line);
    rows.push({
      line: index + 1,
      pkg,
      go: stripCode(go),
      goFile,
      entry: entry === ABSENT ? "" : stripCode(entry),
      tsNames: list(tsName).map(parseTsName),
      tsFiles: list(tsFile),
      note,
    });
  });
  return rows;
}

/** Rewrites the TS file cell of every row with `filesOf(row)`; everything else stays byte for byte. */
export function rewriteTsFiles(markdown: string, filesOf: (row: MapRow) => readonly string[]): string {
  const byLine = new Map(parseMap(markdown).map((row) => [row.line, row]));
  return markdown
    .split("\n")
    .map((line, index) => {
      const row = byLine.get(index + 1);
      if (row === undefined) return line;
      const c = cells(line);
      const files = filesOf(row);
      c[4] = files.length === 0 ? ABSENT : files.join(", ");
      return `| ${c.join(" | ")} |`;
    })
    .join("\n");
}
