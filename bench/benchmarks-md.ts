import { existsSync, readFileSync, writeFileSync } from "node:fs";

const FILE = new URL("../BENCHMARKS.md", import.meta.url);
const TITLE = "# Benchmarks";

/**
 * Writes one bench script's section of BENCHMARKS.md (`file`), headed `## heading`, between
 * `<!-- begin NAME -->` and `<!-- end NAME -->`: replaces the section where it stands, or appends it.
 * The file keeps its one title line; a title at the head of `markdown` is dropped, so a script may
 * hand over a whole page. Sections by script: `hot-path` (compare.ts), `schemas`, `k8s`, `snapshot`.
 */
export function writeBenchmarkSection(name: string, heading: string, markdown: string, file: URL = FILE): void {
  const body = markdown.replace(/^# [^\n]*\n+/, "").trim();
  const section = `<!-- begin ${name} -->\n## ${heading}\n\n${body}\n<!-- end ${name} -->`;
  const page = existsSync(file) ? readFileSync(file, "utf8") : `${TITLE}\n`;
  const begin = page.indexOf(`<!-- begin ${name} -->`);
  const endMarker = `<!-- end ${name} -->`;
  const end = page.indexOf(endMarker, begin);
  const next =
    begin >= 0 && end >= 0 ? page.slice(0, begin) + section + page.slice(end + endMarker.length) : `${page.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.log(`\nwrote the ${name} section of BENCHMARKS.md`);
}
