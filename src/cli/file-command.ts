import { CliError } from "./args.js";
import { type CliIO, InputTooLargeError, MAX_INPUT_BYTES, joinPath } from "./io.js";
import { type Manifest, parseManifests } from "./manifests.js";

/** The name standard input is reported under. */
export const STDIN_NAME = "<stdin>";

/** The files a directory operand contributes, as kubeconform picks them. */
const MANIFEST_FILE = /\.(ya?ml|json)$/i;

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  ENOTDIR: "not a directory",
};

function readError(name: string, err: unknown): CliError {
  const code = (err as { code?: unknown } | null)?.code;
  const known = typeof code === "string" && Object.hasOwn(FS_REASONS, code) ? FS_REASONS[code] : undefined;
  const reason = known ?? (err instanceof InputTooLargeError ? err.message : String((err as Error | null)?.message ?? err));
  return new CliError("ERR_CLI_INPUT", `cannot read ${name}: ${reason}`, { cause: err });
}

/** Lists the manifest files under `dir`, depth first in name order; symbolic links are not followed. */
async function filesUnder(io: CliIO, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await io.readDirectory(dir)) {
    const file = joinPath(dir, entry.name);
    if (entry.type === "directory") files.push(...(await filesUnder(io, file)));
    else if (entry.type === "file" && MANIFEST_FILE.test(entry.name)) files.push(file);
  }
  return files;
}

/** The objects read from the operands, and what could not be read or parsed. */
export interface LoadedInputs {
  /** The objects of every readable file, in operand order (a directory's files in name order). */
  readonly manifests: readonly Manifest[];
  /** One error per operand or file that could not be read or parsed. */
  readonly failures: readonly CliError[];
}

/**
 * Reads and parses every operand: a file, a directory (its `.yaml`, `.yml` and `.json` files,
 * recursively, as kubeconform does), or `-` for stdin. Each is capped at {@link MAX_INPUT_BYTES}.
 * A failure does not stop the others, so one run reports every readable file and names every
 * unreadable one.
 *
 * @param strictKeys - Refuse duplicate keys (strict field validation).
 */
export async function loadInputs(io: CliIO, operands: readonly string[], strictKeys = true): Promise<LoadedInputs> {
  const manifests: Manifest[] = [];
  const failures: CliError[] = [];
  const load = async (name: string, read: () => Promise<string>): Promise<void> => {
    let text: string;
    try {
      text = await read();
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code !== "EISDIR" || name === STDIN_NAME) throw readError(name, err);
      const files = await filesUnder(io, name).catch((dirErr: unknown) => Promise.reject(readError(name, dirErr)));
      for (const file of files)
        await load(file, () => io.readFile(file, MAX_INPUT_BYTES)).catch((e: unknown) => failures.push(e as CliError));
      return;
    }
    manifests.push(...parseManifests({ name, text }, strictKeys));
  };
  for (const operand of operands) {
    const name = operand === "-" ? STDIN_NAME : operand;
    try {
      await load(name, () => (operand === "-" ? io.readStdin(MAX_INPUT_BYTES) : io.readFile(operand, MAX_INPUT_BYTES)));
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      failures.push(err);
    }
  }
  return { manifests, failures };
}
