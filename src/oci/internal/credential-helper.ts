import { spawn } from "node:child_process";
import { RegistryError } from "../errors.js";
import type { RegistryCredentials } from "../credentials.js";

/**
 * Asks a docker credential helper for a registry's credentials: runs `docker-credential-<helper> get`
 * with the server on stdin and reads `{"Username","Secret"}` from stdout (the helper binary protocol).
 * A user name of `<token>` marks an identity (refresh) token.
 *
 * @returns `undefined` when the helper knows nothing of the server ("credentials not found").
 * @throws RegistryError `ERR_REGISTRY_UNAUTHORIZED` when the helper is missing, fails or times out.
 */
export function runCredentialHelper(
  helper: string,
  server: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RegistryCredentials | undefined> {
  const program = `docker-credential-${helper}`;
  const fail = (why: string, cause?: unknown): RegistryError =>
    new RegistryError(
      "ERR_REGISTRY_UNAUTHORIZED",
      `credential helper ${program} for ${server}: ${why}`,
      cause === undefined ? {} : { cause },
    );
  return new Promise((resolve, reject) => {
    const child = spawn(program, ["get"], { stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs, ...(signal && { signal }) });
    const out: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.resume();
    child.on("error", (err) => reject(signal?.aborted === true ? signal.reason : fail(err.message, err)));
    child.on("close", (code, killed) => {
      const text = Buffer.concat(out).toString("utf8").trim();
      if (killed !== null) {
        reject(fail(`killed by ${killed} (timeout ${timeoutMs} ms)`));
        return;
      }
      if (code !== 0) {
        if (/credentials not found/i.test(text)) resolve(undefined);
        else reject(fail(`exit status ${code}: ${text.slice(0, 200)}`));
        return;
      }
      try {
        const answer = JSON.parse(text) as { Username?: unknown; Secret?: unknown };
        if (typeof answer.Secret !== "string" || typeof answer.Username !== "string") {
          reject(fail("answer has no Username/Secret"));
          return;
        }
        resolve(answer.Username === "<token>" ? { identityToken: answer.Secret } : { username: answer.Username, password: answer.Secret });
      } catch (err) {
        reject(fail("answer is not JSON", err));
      }
    });
    child.stdin.end(server);
  });
}
