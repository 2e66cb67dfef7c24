/**
 * The checksum manifest of the committed Go vectors (`test/fixtures/go/SHA256SUMS`): one line per
 * vector, `<sha256 of Go's bytes>  <path as Go wrote it>`, in `sha256sum`'s format, so that
 * `cd ../shared/anchors && sha256sum -c …` checks the source against it too. What is hashed is the
 * decompressed vector, so the line says which bytes of Go's the tests compare.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { GZIP_SUFFIX, storedGzipped } from "../../src/internal/go-vectors.test-util.js";

/** The manifest's file name, at the root of the vector tree. */
export const MANIFEST = "SHA256SUMS";

/** Files at the root of the tree that are about the vectors, not vectors. */
export const NOT_VECTORS: readonly string[] = ["README.md", MANIFEST];

/** The most the stored tree may hold on disk (sum of file sizes). */
export const SIZE_BUDGET_BYTES = 4 * 1024 * 1024;

/** One vector as stored. */
export interface StoredVector {
  /** Its path under the tree as Go wrote it (posix separators, no gzip suffix). */
  readonly name: string;
  /** Its path under the tree as stored (`name`, or `name.gz`). */
  readonly stored: string;
  /** The stored file's size. */
  readonly storedSize: number;
  /** Go's bytes (decompressed). */
  readonly bytes: Buffer;
}

/** Every vector under `root`, sorted by name; throws on a `.gz` file that does not decompress. */
export function storedVectors(root: string): StoredVector[] {
  const out: StoredVector[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const stored = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(stored);
      else if (dir !== "" || !NOT_VECTORS.includes(entry.name)) {
        const raw = readFileSync(path.join(root, stored));
        const gz = stored.endsWith(GZIP_SUFFIX);
        out.push({
          name: gz ? stored.slice(0, -GZIP_SUFFIX.length) : stored,
          stored,
          storedSize: raw.length,
          bytes: gz ? gunzipSync(raw) : raw,
        });
      }
    }
  };
  walk("");
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The manifest text for `vectors` (sorted by name, one line each, trailing newline). */
export function formatManifest(vectors: readonly Pick<StoredVector, "name" | "bytes">[]): string {
  return vectors.map((v) => `${sha256Hex(v.bytes)}  ${v.name}\n`).join("");
}

/** Parses a manifest into name → hex digest; throws naming the first malformed or repeated line. */
export function parseManifest(text: string): Map<string, string> {
  const digests = new Map<string, string>();
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    const match = /^([0-9a-f]{64}) {2}(\S.*)$/.exec(line);
    if (match === null) throw new Error(`${MANIFEST} line ${i + 1}: not "<sha256>  <path>": ${JSON.stringify(line)}`);
    const [, digest = "", name = ""] = match;
    if (digests.has(name)) throw new Error(`${MANIFEST} line ${i + 1}: ${name} listed twice`);
    digests.set(name, digest);
  });
  return digests;
}

/**
 * Everything wrong with the tree at `root` against its manifest: a vector edited, added or removed
 * without the manifest, one stored gzipped (or plain) against the rule of `storedGzipped`, and a
 * tree over {@link SIZE_BUDGET_BYTES}. `[]` when the tree is as the manifest says.
 */
export function manifestProblems(root: string): string[] {
  const listed = parseManifest(readFileSync(path.join(root, MANIFEST), "utf8"));
  const vectors = storedVectors(root);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const v of vectors) {
    if (seen.has(v.name)) problems.push(`${v.name}: stored both plain and gzipped`);
    seen.add(v.name);
    const want = listed.get(v.name);
    const got = sha256Hex(v.bytes);
    if (want === undefined) problems.push(`${v.name}: not in ${MANIFEST} (added without npm run vectors:refresh?)`);
    else if (want !== got) problems.push(`${v.name}: sha256 ${got}, ${MANIFEST} says ${want} (edited?)`);
    const gz = v.stored !== v.name;
    if (gz !== storedGzipped(v.name, v.bytes.length))
      problems.push(
        `${v.stored}: stored ${gz ? "gzipped" : "plain"}, the rule says ${gz ? "plain" : "gzipped"} for ${v.bytes.length} bytes`,
      );
  }
  for (const name of listed.keys()) if (!seen.has(name)) problems.push(`${name}: in ${MANIFEST}, missing from the tree (removed?)`);
  const size = treeBytes(root);
  if (size > SIZE_BUDGET_BYTES) problems.push(`the tree holds ${size} bytes, over the budget of ${SIZE_BUDGET_BYTES}`);
  return problems;
}

/** The sum of the sizes of every file under `root`. */
export function treeBytes(root: string): number {
  let total = 0;
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}
