/**
 * Writes (or, with --check, verifies) the public API report: for every entry point, each exported
 * name with its kind and declared type, as the TypeScript checker sees it from the source barrels.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildApiReports } from "./api-report-lib.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const reports = buildApiReports(root);
const check = process.argv.includes("--check");
let stale = 0;
for (const { file, text } of reports) {
  const path = `${root}/${file}`;
  if (check) {
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      stale += 1;
      console.error(`${file} is stale: run npm run api:report and record the change in CHANGELOG.md`);
    }
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale === 0 ? 0 : 1;
