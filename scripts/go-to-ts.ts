/**
 * Refreshes the TS file column of `docs/go-to-ts.md` from where the compiler finds each TS name
 * declared, and prints what else the map test would report. Run it after moving or renaming files:
 *
 *   npm run map:go-to-ts             # rewrite the TS file column, list remaining problems
 *   npm run map:go-to-ts -- --check  # only list problems; exit 1 if there are any
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { coverageProblems, declaringFiles, isPending, rowProblems } from "./go-to-ts/check-map.js";
import { contractIdentifiers } from "./go-to-ts/contract-identifiers.js";
import { entryPoints } from "./go-to-ts/entry-exports.js";
import { parseMap, rewriteTsFiles } from "./go-to-ts/map-table.js";
import { readGoText } from "../src/internal/go-vectors.test-util.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const mapPath = path.join(root, "docs/go-to-ts.md");
const check = process.argv.includes("--check");

const entries = new Map(entryPoints(root).map((e) => [e.subpath, e]));
let markdown = readFileSync(mapPath, "utf8");
if (!check) {
  const updated = rewriteTsFiles(markdown, (row) => (row.tsNames.length === 0 ? [] : declaringFiles(row, entries.get(row.entry))));
  if (updated !== markdown) writeFileSync(mapPath, updated);
  console.log(updated === markdown ? "docs/go-to-ts.md: TS file column already current" : "docs/go-to-ts.md: TS file column rewritten");
  markdown = updated;
}
const rows = parseMap(markdown);
const pending = rows.filter((row) => isPending(row, entries));
if (pending.length > 0)
  console.log(
    `${pending.length} rows wait for entry points package.json does not export yet: ${[...new Set(pending.map((r) => r.entry))].join(", ")}`,
  );
const problems = rows.filter((row) => !isPending(row, entries)).flatMap((row) => rowProblems(row, entries));
problems.push(...coverageProblems(contractIdentifiers(readGoText("reference/go-contract.md")), rows));
for (const problem of problems) console.log(problem);
console.log(`${rows.length} rows, ${problems.length} problems`);
if (check && problems.length > 0) process.exitCode = 1;
