import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where Go's registry-side vectors live: `../shared/anchors/registry/` beside the repository. */
export const REGISTRY_ANCHORS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../shared/anchors/registry");

/** The message a skipped anchor suite shows. */
export const ANCHORS_MISSING = `Go vectors not found at ${REGISTRY_ANCHORS}: skipped (they live outside this repository)`;

/** Reads one anchor JSON file, or `undefined` when the anchors are absent. */
export function readAnchor<T>(file: string): T | undefined {
  const full = path.join(REGISTRY_ANCHORS, file);
  return existsSync(full) ? (JSON.parse(readFileSync(full, "utf8")) as T) : undefined;
}
