/**
 * Copies Go's golden vectors from the anchors beside the clone into `test/fixtures/go/`, byte for
 * byte (large binary ones gzipped, see `storedGzipped`), rewrites `SHA256SUMS`, and says what changed:
 *
 *   npm run vectors:refresh                                  # from ../shared/anchors
 *   npm run vectors:refresh -- <anchors-dir>                 # from another copy
 *   npm run vectors:refresh -- --reference <go-contract.md>  # default: <anchors-dir>/../reference/go-contract.md
 *   npm run vectors:refresh -- --check                       # change nothing; exit 1 if the copy is stale
 *
 * A vector whose bytes did not change keeps its stored file, so a refresh from the same anchors
 * changes nothing. Vectors gone from a source set are deleted.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { GO_VECTORS, GZIP_SUFFIX, storedGzipped } from "../../src/internal/go-vectors.test-util.js";
import { formatManifest, MANIFEST, manifestProblems, storedVectors, treeBytes } from "./checksums.js";

/** A source set: a directory (or one file) of the anchors and where it goes under the tree. */
interface VectorSet {
  readonly source: string;
  readonly target: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { reference: { type: "string" }, check: { type: "boolean", default: false } },
});
const root = path.resolve(GO_VECTORS, "../../..");
const anchors = path.resolve(positionals[0] ?? path.join(root, "../shared/anchors"));
const sets: VectorSet[] = [
  { source: path.join(anchors, "registry"), target: "registry" },
  { source: path.join(anchors, "crds"), target: "crds" },
  { source: path.join(anchors, "operator"), target: "operator" },
  { source: path.resolve(values.reference ?? path.join(anchors, "../reference/go-contract.md")), target: "reference/go-contract.md" },
];

const missing = sets.filter((s) => !existsSync(s.source)).map((s) => s.source);
if (missing.length > 0) {
  console.error(`vectors:refresh: not found: ${missing.join(", ")} (give the anchors directory as the first argument)`);
  process.exit(2);
}

/** Every file of a set as name under the tree → its bytes. */
function sourceFiles(set: VectorSet): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string, name: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${name}/${entry.name}`);
      else files.set(`${name}/${entry.name}`, readFileSync(full));
    }
  };
  if (statSync(set.source).isDirectory()) walk(set.source, set.target);
  else files.set(set.target, readFileSync(set.source));
  return files;
}

const inSet = (name: string, set: VectorSet): boolean => name === set.target || name.startsWith(`${set.target}/`);
const wanted = new Map<string, Buffer>();
for (const set of sets) for (const [name, bytes] of sourceFiles(set)) wanted.set(name, bytes);
const refused = [...wanted.keys()].filter((name) => name.endsWith(GZIP_SUFFIX));
if (refused.length > 0) {
  console.error(`vectors:refresh: a vector's name may not end in ${GZIP_SUFFIX} (it marks a gzipped one): ${refused.join(", ")}`);
  process.exit(2);
}

mkdirSync(GO_VECTORS, { recursive: true });
const have = new Map(storedVectors(GO_VECTORS).map((v) => [v.name, v]));
const changes: string[] = [];
let unchanged = 0;
for (const [name, bytes] of wanted) {
  const old = have.get(name);
  const stored = storedGzipped(name, bytes.length) ? name + GZIP_SUFFIX : name;
  if (old?.bytes.equals(bytes) === true && old.stored === stored) {
    unchanged++;
    continue;
  }
  changes.push(
    `${old === undefined ? "added  " : "changed"} ${name} (${old === undefined ? "" : `${old.bytes.length} -> `}${bytes.length} bytes)`,
  );
  if (values.check) continue;
  if (old !== undefined) rmSync(path.join(GO_VECTORS, old.stored));
  mkdirSync(path.dirname(path.join(GO_VECTORS, stored)), { recursive: true });
  writeFileSync(path.join(GO_VECTORS, stored), stored === name ? bytes : gzipSync(bytes, { level: 9 }));
}
for (const old of have.values()) {
  if (wanted.has(old.name) || !sets.some((set) => inSet(old.name, set))) continue;
  changes.push(`removed ${old.name}`);
  if (!values.check) rmSync(path.join(GO_VECTORS, old.stored));
}
if (!values.check) removeEmptyDirectories(GO_VECTORS);

/** Deletes the directories left empty by removed vectors. */
function removeEmptyDirectories(dir: string): boolean {
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && removeEmptyDirectories(path.join(dir, entry.name))) rmdirSync(path.join(dir, entry.name));
    else empty = false;
  }
  return empty && dir !== GO_VECTORS;
}

const manifestPath = path.join(GO_VECTORS, MANIFEST);
const manifest = formatManifest(
  values.check ? [...wanted].map(([name, bytes]) => ({ name, bytes })).sort(byName) : storedVectors(GO_VECTORS),
);
const manifestChanged = !existsSync(manifestPath) || readFileSync(manifestPath, "utf8") !== manifest;
if (!values.check && manifestChanged) writeFileSync(manifestPath, manifest);

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

for (const line of changes) console.log(line);
console.log(
  `vectors:refresh: ${changes.length} added, changed or removed, ${unchanged} unchanged, from ${anchors}; ${MANIFEST} ${
    manifestChanged ? (values.check ? "stale" : "rewritten") : "unchanged"
  }`,
);
if (values.check) {
  if (changes.length > 0 || manifestChanged) process.exitCode = 1;
} else {
  const problems = manifestProblems(GO_VECTORS);
  for (const problem of problems) console.error(problem);
  console.log(`test/fixtures/go: ${treeBytes(GO_VECTORS)} bytes stored`);
  if (problems.length > 0) process.exitCode = 1;
}
