/**
 * Every export is met by a reader: named in the examples, the demo, a guide's TypeScript, or the
 * Go → TS map (see `test/surface-use.ts` for exactly what counts). A name none of them uses is
 * either not needed publicly or not yet shown; the list of those not yet shown may only shrink.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryPoints } from "../scripts/go-to-ts/entry-exports.js";
import { NOT_YET_SHOWN } from "./surface-use-pending.js";
import { READ_PLACES, namesUsed } from "./surface-use.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const used = namesUsed(root);
// The root entry is ./meta and ./apis/v1 together (test/public-api.test.ts proves it), so its
// names are counted once, under those two.
const entries = entryPoints(root).filter((e) => e.subpath !== ".");

const howToFix = (subpath: string, source: string) =>
  `named by none of ${READ_PLACES.join(", ")}.\n` +
  `Show each where a user meets it: a real use in a \`ts\` block of the guide of its topic (the docs compile test checks it) ` +
  `or the guide's prose where it explains the name, ` +
  `the examples or the demo, or the TS name cell of its Go twin's row in docs/go-to-ts.md. ` +
  `If users need not name it, remove it from ${source} (CHANGELOG.md, Removed) instead. ` +
  `Never add a name to NOT_YET_SHOWN["${subpath}"] in test/surface-use-pending.ts.`;

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

  it.each(counts)("$subpath: each export is used, or still listed as not yet shown", ({ subpath, source, unused }) => {
    const pending = new Set(NOT_YET_SHOWN[subpath] ?? []);
    expect(
      unused.filter((n) => !pending.has(n)),
      `exports of ${subpath} ${howToFix(subpath, source)}`,
    ).toEqual([]);
  });

  it.each(counts)("$subpath: NOT_YET_SHOWN lists only exports still unused", ({ subpath, unused }) => {
    const still = new Set(unused);
    expect(
      (NOT_YET_SHOWN[subpath] ?? []).filter((n) => !still.has(n)),
      `now used or no longer exported: remove them from NOT_YET_SHOWN["${subpath}"] in test/surface-use-pending.ts`,
    ).toEqual([]);
  });

  it("NOT_YET_SHOWN names only entry points package.json exports", () => {
    expect(Object.keys(NOT_YET_SHOWN).filter((s) => !entries.some((e) => e.subpath === s))).toEqual([]);
  });
});
