/**
 * The TypeScript blocks of the README and the guides, and how they become compilable modules.
 *
 * @module
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** One fenced block: its language, text, and the line of its first text line in the document. */
export interface Block {
  lang: string;
  text: string;
  line: number;
}

/** A document with its blocks. */
export interface Doc {
  /** Path relative to the repository, e.g. `docs/guides/testing.md`. */
  path: string;
  blocks: Block[];
}

/** Reads the fenced code blocks of a markdown file. */
export function readBlocks(root: string, path: string): Doc {
  const lines = readFileSync(join(root, path), "utf8").split("\n");
  const blocks: Block[] = [];
  let open: { lang: string; line: number; text: string[] } | undefined;
  lines.forEach((line, i) => {
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence === null) open?.text.push(line);
    else if (open === undefined) open = { lang: fence[1] ?? "", line: i + 2, text: [] };
    else {
      blocks.push({ lang: open.lang, text: open.text.join("\n"), line: open.line });
      open = undefined;
    }
  });
  return { path, blocks };
}

/** The README and every guide. */
export function readDocs(root: string): Doc[] {
  const guides = readdirSync(join(root, "docs/guides"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  return ["README.md", ...guides.map((f) => `docs/guides/${f}`)].map((path) => readBlocks(root, path));
}

/** Where a line of a generated module came from. */
export interface Origin {
  path: string;
  line: number;
}

/** A module made of blocks: its source and the map from its lines back to the document. */
export interface DocModule {
  source: string;
  origin: (line: number) => Origin | undefined;
}

// A block whose first line names a file (`// vitest.config.ts`, `// test/global-setup.ts: ...`)
// starts a new module; every other block continues the one before it, as prose reads.
const FILE_COMMENT = /^\/\/ [\w./-]+\.[cm]?ts\b/;

/**
 * Joins a document's `ts` blocks, in order, into modules, and maps generated lines back to the
 * document. What the prose assumes (e.g. `pod`) is declared globally by `doc-prelude.d.ts`.
 */
export function toModules(doc: Doc): DocModule[] {
  const prelude = "export {};";
  const groups: Block[][] = [];
  for (const block of doc.blocks.filter((b) => b.lang === "ts")) {
    const last = groups.at(-1);
    if (last === undefined || FILE_COMMENT.test(block.text)) groups.push([block]);
    else last.push(block);
  }
  return groups.map((blocks) => {
    const starts: { at: number; line: number }[] = [];
    let at = prelude.split("\n").length;
    for (const block of blocks) {
      starts.push({ at: at + 1, line: block.line });
      at += block.text.split("\n").length;
    }
    const origin = (line: number) => {
      const start = starts.filter((s) => s.at <= line).at(-1);
      return start === undefined ? undefined : { path: doc.path, line: start.line + line - start.at };
    };
    return { source: [prelude, ...blocks.map((b) => b.text)].join("\n"), origin };
  });
}
