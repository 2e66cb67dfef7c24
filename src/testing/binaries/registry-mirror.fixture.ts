/**
 * Test fixture: a real distribution release archive built from the cached registry binary, laid out
 * as the release's (`registry`, `README.md`, `LICENSE` at the top), for the download tests only.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { registryCacheDir } from "./cache-dir.js";
import { runCommand } from "./run-command.js";

/** The cached registry binary the archive is built from. */
export const CACHED_REGISTRY = join(registryCacheDir(), "registry");

/**
 * Packs `registry` (a source path, or none) with a README.md and LICENSE into `<dir>/<name>`.
 *
 * @returns The archive path and its bare SHA-256, as the release's `.sha256` file holds it.
 */
export async function packRegistryArchive(
  dir: string,
  name: string,
  registry: string | undefined,
): Promise<{ path: string; sha256: string }> {
  const tree = join(dir, `${name}.tree`);
  await mkdir(tree, { recursive: true });
  await writeFile(join(tree, "README.md"), "# distribution\n");
  await writeFile(join(tree, "LICENSE"), "Apache License 2.0\n");
  if (registry !== undefined) await symlink(registry, join(tree, "registry"));
  const path = join(dir, name);
  await runCommand("tar", ["--dereference", "--use-compress-program=gzip -1", "-cf", path, "-C", tree, "."]);
  const sha256 = createHash("sha256")
    .update(await readFile(path))
    .digest("hex");
  return { path, sha256 };
}
