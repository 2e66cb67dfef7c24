/**
 * Runs the BUILT `cocoon-common` executable (`dist/cli/main.js`, or the file in `$COCOON_CLI`) as a
 * process, in a scratch directory holding the given files. Build it first (`npx tsup`, part of `npm test`).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The executable under test. */
export const cliPath = path.resolve(root, process.env.COCOON_CLI ?? "dist/cli/main.js");
/** Whether it has been built; the suites skip (saying so) when it has not. */
export const built = existsSync(cliPath);
/** The suite title, naming the executable or why the suite is skipped. */
export const suiteTitle = `the built CLI (${built ? path.relative(root, cliPath) : `skipped: ${cliPath} is missing, run \`npx tsup\``})`;

/** What one run printed and how it ended. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A scratch directory with `files` (paths may hold `/`), removed by `remove()`. */
export function scratch(files: Readonly<Record<string, string>>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "cocoon-cli-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the CLI in `dir` with `stdin`, and waits for it. */
export function runCli(dir: string, args: readonly string[], stdin = ""): CliRun {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: dir,
    input: stdin,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the CLI with an endless standard input (`yes | cocoon-common ...`): writes `chunk` until
 * the process exits or `maxBytes` have been written, then closes stdin. Resolves to the run and the bytes written.
 */
export function runCliWithEndlessStdin(
  dir: string,
  args: readonly string[],
  chunk: string,
  maxBytes: number,
): Promise<CliRun & { written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: dir });
    let stdout = "";
    let stderr = "";
    let written = 0;
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdin.on("error", () => undefined); // EPIPE once the CLI stops reading
    const block = Buffer.from(chunk.repeat(Math.ceil(65536 / chunk.length)));
    const pump = (): void => {
      while (written < maxBytes && !child.stdin.destroyed) {
        written += block.length;
        if (!child.stdin.write(block)) return void child.stdin.once("drain", pump);
      }
      child.stdin.end();
    };
    pump();
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr, written }));
  });
}
