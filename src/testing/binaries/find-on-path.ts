import { stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { isExecutable } from "./executable.js";

/**
 * Returns the first executable `name` on `env.PATH` (as a shell would run it), or `undefined`.
 *
 * Lets a caller learn that `go` is missing before it takes a lock or promises a build.
 *
 * @internal
 */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const suffixes = process.platform === "win32" ? ["", ".exe"] : [""];
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if ((await stat(candidate).catch(() => undefined))?.isFile() && (await isExecutable(candidate))) return candidate;
    }
  }
  return undefined;
}
