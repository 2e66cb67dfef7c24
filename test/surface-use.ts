/**
 * Which exported names a reader meets: every identifier of the examples and the demo; in the
 * guides, every identifier of a `ts` block and of an inline code span of the prose (`PullOptions`,
 * `plane.auditEvents()`), but not of other blocks (shell, YAML, output); and every TS name of the
 * Go → TS map.
 *
 * @module
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { parseMap } from "../scripts/go-to-ts/map-table.js";
import { readBlocks } from "./package/doc-blocks.js";

/** The places a user reads, relative to the repository. */
export const READ_PLACES = [
  "examples/**/*.ts",
  "demo/**/*.ts",
  "docs/guides/*.md (ts blocks and inline code)",
  "docs/go-to-ts.md (TS name column)",
];

function filesUnder(root: string, dir: string, ext: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext))
    .map((f) => relative(root, join(root, dir, f)))
    .sort();
}

function identifiers(text: string, into: Set<string>): void {
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) into.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("block.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
}

/** The markdown without its fenced blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** Every name the examples, the demo, the guides' code and the Go → TS map use. */
export function namesUsed(root: string): Set<string> {
  const used = new Set<string>();
  for (const file of [...filesUnder(root, "examples", ".ts"), ...filesUnder(root, "demo", ".ts")]) {
    identifiers(readFileSync(join(root, file), "utf8"), used);
  }
  for (const guide of filesUnder(root, "docs/guides", ".md")) {
    for (const block of readBlocks(root, guide).blocks) if (block.lang === "ts") identifiers(block.text, used);
    for (const span of prose(readFileSync(join(root, guide), "utf8")).matchAll(/`([^`\n]+)`/g)) {
      for (const [name] of (span[1] ?? "").matchAll(/[A-Za-z_$][\w$]*/g)) used.add(name);
    }
  }
  for (const row of parseMap(readFileSync(join(root, "docs/go-to-ts.md"), "utf8"))) {
    for (const name of row.tsNames) used.add(name.name);
  }
  return used;
}
