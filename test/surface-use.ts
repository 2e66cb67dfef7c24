/**
 * Which exported names a reader meets: every identifier of the examples and the demo, every
 * identifier of the `ts` blocks of the guides, and every TS name of the Go → TS map.
 *
 * @module
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { parseMap } from "../scripts/go-to-ts/map-table.js";
import { readBlocks } from "./package/doc-blocks.js";

/** The places a user reads, relative to the repository. */
export const READ_PLACES = ["examples/**/*.ts", "demo/**/*.ts", "docs/guides/*.md (ts blocks)", "docs/go-to-ts.md (TS name column)"];

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

/** Every name the examples, the demo, the guides' code and the Go → TS map use. */
export function namesUsed(root: string): Set<string> {
  const used = new Set<string>();
  for (const file of [...filesUnder(root, "examples", ".ts"), ...filesUnder(root, "demo", ".ts")]) {
    identifiers(readFileSync(join(root, file), "utf8"), used);
  }
  for (const guide of filesUnder(root, "docs/guides", ".md")) {
    for (const block of readBlocks(root, guide).blocks) if (block.lang === "ts") identifiers(block.text, used);
  }
  for (const row of parseMap(readFileSync(join(root, "docs/go-to-ts.md"), "utf8"))) {
    for (const name of row.tsNames) used.add(name.name);
  }
  return used;
}
