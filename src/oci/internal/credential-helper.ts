import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { RegistryError, type RegistryErrorCode } from "../errors.js";
import type { RegistryCredentials } from "../credentials.js";

/** Most bytes a helper may print on stdout; its stderr is not read at all. */
export const MAX_HELPER_OUTPUT_BYTES = 1 << 20;
/** How long a (grand)child may hold the helper's stdout open after the helper exited. */
const EXIT_GRACE_MS = 100;
/** Between SIGTERM and SIGKILL of the helper's process group. */
const KILL_GRACE_MS = 200;
/** What docker-credential-helpers prints (exit status 1) when it holds nothing for the server. */
const NOT_FOUND = "credentials not found in native keychain";
const HELPER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}$/;

type Fail = (why: string, cause?: unknown, code?: RegistryErrorCode) => RegistryError;

/** How long a helper may take, and what may cut it short. */
export interface HelperRunOptions {
  /** Deadline of the whole run, lookup included. */
  readonly timeoutMs: number;
  /** Aborting it ends the run with the signal's reason and kills the helper. */
  readonly signal?: AbortSignal | undefined;
  /** `PATH` to find `docker-credential-<name>` on; default `process.env.PATH`. */
  readonly pathEnv?: string | undefined;
}

/**
 * Why `name` cannot name a credential helper, or `undefined` when it can: a helper name is one
 * word of letters, digits and `_ . + -` (not starting with `-` or `.`, without `..`), so
 * `docker-credential-<name>` is a file name looked up on `PATH`, never a path.
 */
export function helperNameProblem(name: string): string | undefined {
  if (name === "") return "is empty";
  if (!HELPER_NAME.test(name) || name.includes(".."))
    return "is not a single helper name (letters, digits, _ . + - only, at most 128, not starting with - or ., no ..)";
  return undefined;
}

/**
 * Asks a docker credential helper for a registry's credentials: runs `docker-credential-<helper> get`
 * (found in an absolute `PATH` directory, as Go's `exec.LookPath` does) with the server on stdin and
 * reads `{"Username","Secret"}` from stdout (the helper binary protocol). A user name of `<token>`
 * marks an identity (refresh) token.
 *
 * The helper runs in its own process group. At the deadline, on an abort, or when its stdout passes
 * {@link MAX_HELPER_OUTPUT_BYTES}, the call ends at once and the group gets SIGTERM, then SIGKILL;
 * a child left holding stdout after the helper exits is killed the same way. No error carries the
 * helper's output.
 *
 * @returns `undefined` when the helper knows nothing of the server ("credentials not found").
 * @throws RegistryError `ERR_REGISTRY_TIMEOUT` at the deadline; `ERR_REGISTRY_UNAUTHORIZED` when the
 *   name is not a helper name, the helper is missing, fails, or answers too much or no credentials.
 *   An abort rejects with the signal's reason.
 */
export async function runCredentialHelper(
  helper: string,
  server: string,
  options: HelperRunOptions,
): Promise<RegistryCredentials | undefined> {
  const problem = helperNameProblem(helper);
  if (problem !== undefined)
    throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `credential helper for ${server}: the helper name ${problem}`);
  const program = `docker-credential-${helper}`;
  const fail: Fail = (why, cause, code = "ERR_REGISTRY_UNAUTHORIZED") =>
    new RegistryError(code, `credential helper ${program} for ${server}: ${why}`, cause === undefined ? {} : { cause });
  options.signal?.throwIfAborted();
  const started = Date.now();
  const file = await findOnPath(program, options.pathEnv ?? process.env.PATH);
  options.signal?.throwIfAborted();
  if (file === undefined) throw fail(`${program} is not found on PATH`);
  return run(file, server, Math.max(0, options.timeoutMs - (Date.now() - started)), options, fail);
}

async function findOnPath(program: string, pathEnv: string | undefined): Promise<string | undefined> {
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    // Relative entries ("", ".") would find the helper in the working directory; Go refuses those too.
    if (!isAbsolute(dir)) continue;
    const file = join(dir, program);
    try {
      if (!(await stat(file)).isFile()) continue;
      await access(file, constants.X_OK);
      return file;
    } catch {
      continue;
    }
  }
  return undefined;
}

function run(
  file: string,
  server: string,
  timeoutMs: number,
  options: HelperRunOptions,
  fail: Fail,
): Promise<RegistryCredentials | undefined> {
  return new Promise((resolve, reject) => {
    // Loaded on the first helper run: a process that never runs one never pays for
    // `node:child_process` (and the `dgram` it brings).
    const child = process
      .getBuiltinModule("node:child_process")
      .spawn(file, ["get"], { detached: true, stdio: ["pipe", "pipe", "ignore"] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let exitCode: number | null = null;
    let exitGrace: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (killGroup: boolean, outcome: () => RegistryCredentials | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(exitGrace);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stdin.destroy();
      if (killGroup) killProcessGroup(child.pid);
      try {
        resolve(outcome());
      } catch (err) {
        reject(err);
      }
    };
    const onAbort = (): void =>
      settle(true, () => {
        throw options.signal?.reason;
      });
    const deadline = setTimeout(
      () =>
        settle(true, () => {
          throw fail(`no answer within ${options.timeoutMs} ms`, undefined, "ERR_REGISTRY_TIMEOUT");
        }),
      timeoutMs,
    );
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_HELPER_OUTPUT_BYTES)
        settle(true, () => {
          throw fail(`answer passes ${MAX_HELPER_OUTPUT_BYTES} bytes`);
        });
      else out.push(chunk);
    });
    // A helper that exits without reading stdin (EPIPE): its exit status and output tell the story.
    child.stdin.on("error", () => undefined);
    child.on("error", (err) =>
      settle(true, () => {
        throw fail(`cannot run: ${(err as NodeJS.ErrnoException).code ?? "error"}`, err);
      }),
    );
    child.on("exit", (code, signal) => {
      exitCode = code;
      if (signal !== null) {
        settle(true, () => {
          throw fail(`killed by ${signal}`);
        });
        return;
      }
      // A (grand)child still holding stdout: take what the helper printed, then end the group.
      exitGrace = setTimeout(() => settle(true, () => answerOf(exitCode, out, fail)), EXIT_GRACE_MS);
    });
    child.on("close", () => settle(false, () => answerOf(exitCode, out, fail)));
    child.stdin.end(server);
  });
}

function answerOf(code: number | null, out: readonly Buffer[], fail: Fail): RegistryCredentials | undefined {
  const text = Buffer.concat(out).toString("utf8").trim();
  if (code !== 0) {
    if (text === NOT_FOUND) return undefined;
    throw fail(`exit status ${String(code)}`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    // The parser's message quotes the input, which may hold the secret: neither is kept.
    throw fail("answer is not JSON");
  }
  const { Username: username, Secret: secret } = (typeof answer === "object" && answer !== null ? answer : {}) as {
    Username?: unknown;
    Secret?: unknown;
  };
  if (typeof secret !== "string" || typeof username !== "string") throw fail("answer has no Username/Secret strings");
  if (username === "" && secret === "") return undefined;
  return username === "<token>" ? { identityToken: secret } : { username, password: secret };
}

function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  const kill = (signal: NodeJS.Signals): boolean => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // ESRCH: the group is gone
    }
  };
  if (kill("SIGTERM")) setTimeout(() => kill("SIGKILL"), KILL_GRACE_MS);
}
