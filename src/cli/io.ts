import { open, readdir } from "node:fs/promises";
import { stringify } from "yaml";
import { CliError } from "./args.js";
import { type Manifest, parseManifests } from "./manifests.js";

/** What a command needs from the outside world; tests pass fakes. */
export interface CliIO {
  /** Writes to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** Reads standard input as UTF-8, at most `maxBytes`; rejects with {@link InputTooLargeError} beyond, and stops reading. */
  readonly readStdin: (maxBytes: number) => Promise<string>;
  /** Reads a file as UTF-8, at most `maxBytes`; rejects with the `fs` error (`EISDIR` for a directory) or {@link InputTooLargeError}. */
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
  /** Lists the entries of a directory, sorted by name; rejects with the `fs` error. */
  readonly readDirectory: (path: string) => Promise<readonly DirectoryEntry[]>;
}

/** One entry of a directory; symbolic links are neither files nor directories (never followed). */
export interface DirectoryEntry {
  /** The name inside the directory. */
  readonly name: string;
  /** `file`, `directory`, or `other`. */
  readonly type: "file" | "directory" | "other";
}

/**
 * The most a command reads from one file or from stdin: 32 MiB, ten times the 3 MiB the API
 * server accepts in one request, so a stream of many objects fits but `yes | cocoon-common validate -`
 * stops at once.
 */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** An input over its limit. */
export class InputTooLargeError extends Error {
  override name = "InputTooLargeError";
  /** The limit it went over, in bytes. */
  readonly maxBytes: number;

  /** @param maxBytes - The limit. */
  constructor(maxBytes: number) {
    super(`input too large (more than ${maxBytes / 1024 / 1024} MiB)`);
    this.maxBytes = maxBytes;
  }
}

/**
 * Reads all of `stream` as UTF-8 text, and stops (destroying it when it can) as soon as it holds
 * more than `maxBytes`.
 *
 * @throws {@link InputTooLargeError} beyond `maxBytes`.
 */
export async function readAll(stream: AsyncIterable<Buffer | string> & { destroy?: () => void }, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      stream.destroy?.();
      throw new InputTooLargeError(maxBytes);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readFileCapped(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, "r");
  try {
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error(`EISDIR: ${file}`), { code: "EISDIR" });
    return await readAll(handle.createReadStream({ autoClose: false }), maxBytes);
  } finally {
    await handle.close();
  }
}

/** The real process: `process.stdout`, `process.stderr`, `process.stdin` and the file system. */
export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readStdin: (maxBytes) => readAll(process.stdin, maxBytes),
  readFile: readFileCapped,
  readDirectory: async (dir) =>
    (await readdir(dir, { withFileTypes: true }))
      .map((entry) => ({ name: entry.name, type: entry.isFile() ? "file" : entry.isDirectory() ? "directory" : "other" }) as const)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
};

/** Joins a directory and an entry name the way the user wrote the directory (`dir/a.yaml`, `./dir/a.yaml`). */
function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** The name standard input is reported under. */
const STDIN_NAME = "<stdin>";

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

const BIGINT_MARK = "\u0000bigint:";

/**
 * Serialises `value` as indented JSON; a `bigint` (a Go `int64` beyond 2^53) is written as a
 * plain JSON number with all its digits, never rounded and never quoted.
 *
 * @example
 * ```ts
 * toJSON({ generation: 9007199254740993n }); // => '{\n  "generation": 9007199254740993\n}'
 * ```
 */
export function toJSON(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${BIGINT_MARK}${v}` : v), 2);
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}

/**
 * Renders values as a YAML stream that kubectl reads back unchanged: YAML 1.1 quoting (so the
 * string `"yes"` stays a string), no line folding, no anchors; documents separated by `---`.
 */
export function toYAMLStream(values: readonly unknown[]): string {
  return values.map((value) => stringify(value, { version: "1.1", lineWidth: 0, aliasDuplicateObjects: false })).join("---\n");
}
