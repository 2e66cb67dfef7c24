/**
 * An in-memory {@link CliIO} for tests: `files` is the file system (a path with files under it is a
 * directory), `stdin` the standard input; both honour the read limit as the real process does.
 *
 * @internal
 */
import { type CliIO, InputTooLargeError } from "./io.js";
import { run } from "./run.js";

const fsError = (code: string) => Object.assign(new Error(code), { code });

function memoryIO(files: Readonly<Record<string, string>>, stdin: string, out: { stdout: string; stderr: string }): CliIO {
  const isDirectory = (path: string) => Object.keys(files).some((file) => file.startsWith(`${path.replace(/\/$/, "")}/`));
  const capped = (text: string, maxBytes: number) =>
    Buffer.byteLength(text) > maxBytes ? Promise.reject(new InputTooLargeError(maxBytes)) : Promise.resolve(text);
  return {
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    readStdin: (maxBytes) => capped(stdin, maxBytes),
    readFile: (path, maxBytes) => {
      const text = Object.hasOwn(files, path) ? files[path] : undefined;
      if (text !== undefined) return capped(text, maxBytes);
      return Promise.reject(fsError(isDirectory(path) ? "EISDIR" : "ENOENT"));
    },
    readDirectory: (path) => {
      if (!isDirectory(path)) return Promise.reject(fsError("ENOTDIR"));
      const prefix = `${path.replace(/\/$/, "")}/`;
      const names = new Set(
        Object.keys(files)
          .filter((f) => f.startsWith(prefix))
          .map((f) => f.slice(prefix.length).split("/")[0] ?? ""),
      );
      return Promise.resolve(
        [...names].sort().map((name) => ({ name, type: Object.hasOwn(files, `${prefix}${name}`) ? "file" : "directory" }) as const),
      );
    },
  };
}

/** Runs the CLI in memory and returns its exit status and output. */
export async function runInMemory(argv: readonly string[], files: Readonly<Record<string, string>> = {}, stdin = "") {
  const out = { stdout: "", stderr: "" };
  const status = await run(argv, memoryIO(files, stdin, out));
  return { status, ...out };
}
