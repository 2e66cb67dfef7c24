/**
 * The checks behind the Go → TS map: every Go identifier of the reference has a row, every row
 * names TS exports that exist (with the files that declare them), and every row without a twin
 * says why. Each check returns problems as text, so the test and the script print the same words.
 */
import { goKey, type GoIdentifier } from "./contract-identifiers.js";
import type { EntryPoint } from "./entry-exports.js";
import type { MapRow, TsName } from "./map-table.js";

/** Entry points CONTRACT.md promises that package.json may not export yet; rows on them wait until it does. */
export const PENDING_ENTRY_POINTS: ReadonlySet<string> = new Set(["./oci", "./snapshot"]);

/** Whether a row names TS exports of an entry point that does not exist yet. */
export const isPending = (row: MapRow, entries: ReadonlyMap<string, EntryPoint>): boolean =>
  row.tsNames.length > 0 && !entries.has(row.entry) && PENDING_ENTRY_POINTS.has(row.entry);

const rowKey = (row: MapRow): string => `${row.pkg}.${row.go}`;
const where = (row: MapRow): string => `docs/go-to-ts.md:${row.line} (${rowKey(row)})`;

/** Reference identifiers with no row, rows the reference does not list, and identifiers with two rows. */
export function coverageProblems(reference: readonly GoIdentifier[], rows: readonly MapRow[]): string[] {
  const listed = new Set(reference.map(goKey));
  const mapped = new Map<string, MapRow>();
  const problems: string[] = [];
  for (const row of rows) {
    if (mapped.has(rowKey(row))) problems.push(`${where(row)}: a second row for the same Go identifier`);
    mapped.set(rowKey(row), row);
    if (!listed.has(rowKey(row))) problems.push(`${where(row)}: go-contract.md does not list this Go identifier`);
  }
  for (const id of reference) {
    if (!mapped.has(goKey(id))) problems.push(`${goKey(id)}: listed in go-contract.md, missing from docs/go-to-ts.md`);
  }
  return problems;
}

/** The source files that declare a row's TS names, in the order the names come. */
export function declaringFiles(row: MapRow, entry: EntryPoint | undefined): string[] {
  const files = row.tsNames.map((n) => entry?.names.get(n.name)?.file ?? "");
  return [...new Set(files.filter((f) => f !== ""))];
}

/** Names a Go identifier would most likely get in TS; used to catch an absence that is no longer true. */
function likelyTwins(go: string): string[] {
  if (go.includes(".")) return [];
  return [go, go.charAt(0).toLowerCase() + go.slice(1)];
}

function nameProblem(name: TsName, entry: EntryPoint, runtime: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const exported = entry.names.get(name.name);
  const label = name.kind === "member" ? `${name.name}.${name.member ?? ""}` : name.name;
  if (exported === undefined) return `${entry.subpath} does not export ${name.name}`;
  if (name.kind === "type") return exported.type ? undefined : `${name.name} is exported by ${entry.subpath} but is not a type`;
  if (runtime === undefined) return exported.value ? undefined : `${name.name} is a type only; write \`type ${name.name}\``;
  const value = runtime[name.name];
  if (!(name.name in runtime)) return `${entry.subpath} has no run-time export ${name.name}`;
  if (name.kind === "member" && (typeof value !== "object" || value === null || !Object.hasOwn(value, name.member ?? ""))) {
    return `${label} does not exist at run time`;
  }
  return undefined;
}

/**
 * Problems of one row against the entry points. `runtime` is the imported module of the row's entry
 * (values are then checked at run time, members included); without it only the compiler's view counts.
 */
export function rowProblems(row: MapRow, entries: ReadonlyMap<string, EntryPoint>, runtime?: Readonly<Record<string, unknown>>): string[] {
  if (row.tsNames.length === 0) {
    const problems = row.note === "" ? [`${where(row)}: no TS twin and no reason in Note`] : [];
    for (const entry of entries.values()) {
      for (const twin of likelyTwins(row.go).filter((t) => entry.names.has(t))) {
        problems.push(`${where(row)}: says there is no TS twin, but ${entry.subpath} exports ${twin}`);
      }
    }
    return problems;
  }
  const entry = entries.get(row.entry);
  if (entry === undefined) return [`${where(row)}: TS import "${row.entry}" is not an entry point in package.json exports`];
  const problems = row.tsNames.flatMap((n) => {
    const problem = nameProblem(n, entry, runtime);
    return problem === undefined ? [] : [`${where(row)}: ${problem}`];
  });
  const actual = declaringFiles(row, entry);
  if (problems.length === 0 && actual.join(", ") !== row.tsFiles.join(", ")) {
    problems.push(
      `${where(row)}: TS file says ${row.tsFiles.join(", ") || "—"}, declared in ${actual.join(", ")}; run \`npm run map:go-to-ts\``,
    );
  }
  return problems;
}
