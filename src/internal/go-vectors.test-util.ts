// Test-only reader of Go's golden vectors, committed under test/fixtures/go/ (see its README.md).
// A vector is named by its path in that tree as Go wrote it; a large binary one is stored gzipped
// beside that name (`export.tar` as `export.tar.gz`) and handed back decompressed, byte for byte.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

/** The root of the committed Go vectors: `test/fixtures/go/`. */
export const GO_VECTORS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/go");

/** The suffix of a vector stored gzipped. */
export const GZIP_SUFFIX = ".gz";

/** Vectors from this size up are stored gzipped, unless they are text (reviewable in a diff). */
export const COMPRESS_FROM_BYTES = 64 * 1024;

const TEXT_EXTENSIONS = new Set([".json", ".yaml", ".md"]);

/** Whether a vector named `name` with `size` bytes is stored gzipped: binary, and at least {@link COMPRESS_FROM_BYTES}. */
export function storedGzipped(name: string, size: number): boolean {
  return size >= COMPRESS_FROM_BYTES && !TEXT_EXTENSIONS.has(path.extname(name));
}

/** Reads the vector `name` (a path under {@link GO_VECTORS}, as Go wrote it), decompressed: Go's exact bytes. */
export function readGoVector(name: string): Buffer {
  const plain = path.join(GO_VECTORS, name);
  return existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(plain + GZIP_SUFFIX));
}

/** Reads a vector as UTF-8 text. */
export function readGoText(name: string): string {
  return readGoVector(name).toString("utf8");
}

/** Parses a JSON vector. */
export function readGoJSON<T>(name: string): T {
  return JSON.parse(readGoText(name)) as T;
}

/** Whether the vector (or directory) `name` exists, stored plain or gzipped. */
export function hasGoVector(name: string): boolean {
  const plain = path.join(GO_VECTORS, name);
  return existsSync(plain) || existsSync(plain + GZIP_SUFFIX);
}

/** The names in the vector directory `dir` (files as Go wrote them, without the gzip suffix, and subdirectories), sorted. */
export function goVectorNames(dir: string): string[] {
  return readdirSync(path.join(GO_VECTORS, dir))
    .map((entry) => (entry.endsWith(GZIP_SUFFIX) ? entry.slice(0, -GZIP_SUFFIX.length) : entry))
    .sort();
}

/** The snapshot cases of Go's registry vectors: `registry/snapshot/<case>/`, each an export Go pushed and pulled. */
export const SNAPSHOT_VECTOR_CASES = [
  "v1-basic",
  "v1-sparse",
  "v1-annotations",
  "v1-windows-rich",
  "v2-knobs-small-stays-v1",
  "v2-zstd",
  "v2-chunked",
  "v2-zstd-chunked",
];

/** A file of Go's registry vectors, `registry/<parts joined by />`. */
export function readRegistryVector(...parts: string[]): Buffer {
  return readGoVector(["registry", ...parts].join("/"));
}
