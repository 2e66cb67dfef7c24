/**
 * Every export is met by a reader: named in the examples, the demo, a guide's TypeScript, or the
 * Go → TS map (see `test/surface-use.ts` for exactly what counts). A name none of them uses is
 * either not needed publicly (remove it) or not yet shown (show it).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryPoints } from "../scripts/go-to-ts/entry-exports.js";
import { READ_PLACES, namesUsed } from "./surface-use.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const used = namesUsed(root);
// The root entry is ./meta and ./apis/v1 together (test/public-api.test.ts proves it), so its
// names are counted once, under those two.
const entries = entryPoints(root).filter((e) => e.subpath !== ".");

const howToFix = (source: string) =>
  `named by none of ${READ_PLACES.join(", ")}.\n` +
  `Show each where a user meets it: a real use in a \`ts\` block of the guide of its topic (the docs compile test checks it) ` +
  `or the guide's prose where it explains the name, ` +
  `the examples or the demo, or the TS name cell of its Go twin's row in docs/go-to-ts.md. ` +
  `If users need not name it, remove it from ${source} (CHANGELOG.md, Removed) instead.`;

describe("every export is used where a reader meets it", () => {
  const counts = entries.map((e) => {
    const unused = [...e.names.keys()].filter((n) => !used.has(n)).sort();
    return { subpath: e.subpath, source: e.source, total: e.names.size, unused };
  });
  console.log(
    counts
      .map((c) => `${c.subpath}: ${String(c.total)} exports, ${String(c.unused.length)} used by none of the places a reader meets`)
      .join("\n"),
  );

  it.each(counts)("$subpath: each export is used", ({ subpath, source, unused }) => {
    expect(unused, `exports of ${subpath} ${howToFix(source)}`).toEqual([]);
  });
});
