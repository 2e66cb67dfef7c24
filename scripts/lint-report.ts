/**
 * Counts what `npm run lint` would report, per rule and per folder, plus the files prettier would
 * rewrite, so a lint clean-up can be planned and checked:
 *
 *   npx tsx scripts/lint-report.ts
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `src/meta` for files under src, else the top-level folder (or the file itself at the root). */
const folderOf = (file: string): string => {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === "src" && parts.length > 2 ? `src/${parts[1] ?? ""}` : (parts[0] ?? "");
};

const increment = (counts: Map<string, number>, key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

const table = (title: string, counts: ReadonlyMap<string, number>): string =>
  [
    `| ${title} | count |`,
    "|---|---|",
    ...[...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `| ${k} | ${n} |`),
  ].join("\n");

const results = await new ESLint({ cwd: root }).lintFiles(["."]);
const byRule = new Map<string, number>();
const byFolder = new Map<string, number>();
let fixable = 0;
for (const result of results) {
  fixable += result.fixableErrorCount + result.fixableWarningCount;
  for (const message of result.messages) {
    increment(byRule, message.ruleId ?? "(parse error)");
    increment(byFolder, folderOf(result.filePath));
  }
}
const total = [...byRule.values()].reduce((a, b) => a + b, 0);

// prettier exits 1 when files differ; its stdout lists them either way.
let unformatted: string[] = [];
try {
  execFileSync("npx", ["prettier", "--list-different", "."], { cwd: root, encoding: "utf8" });
} catch (err) {
  const { stdout } = err as { stdout?: string };
  unformatted = (stdout ?? "").split("\n").filter(Boolean);
}
const formatByFolder = new Map<string, number>();
for (const file of unformatted) increment(formatByFolder, folderOf(path.join(root, file)));

console.log(
  `ESLint: ${total} problems in ${results.filter((r) => r.messages.length > 0).length} of ${results.length} files, ${fixable} fixable by --fix\n`,
);
console.log(`${table("rule", byRule)}\n\n${table("folder", byFolder)}\n`);
console.log(`prettier: ${unformatted.length} files to rewrite\n\n${table("folder", formatByFolder)}`);
