import { access, readFile } from "node:fs/promises";
import { request } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { CocoonError } from "../../errors.js";
import type { ManagedProcess } from "../process/managed-process.js";

/** What {@link httpsGet} got back. */
export interface HttpsResponse {
  /** HTTP status. */
  status: number;
  /** Body as text. */
  body: string;
}

/**
 * GETs `url`, trusting only `caPem`, within `timeoutMs`; with a bearer `token` when one is given.
 *
 * @internal
 */
export function httpsGet(url: string, token: string | undefined, caPem: string, timeoutMs: number): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const req = request(url, { ca: caPem, headers, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

const fileExists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** A server that is being waited for: its process among the started ones, and how to ask it. @internal */
export interface ReadinessProbe {
  /** The process whose log tail a timeout reports (`kube-apiserver`, `kube-scheduler`). */
  name: string;
  /** Its base URL, `https://127.0.0.1:<port>`. */
  server: string;
  /** The self-signed serving certificate it writes at start; it is trusted once there. */
  certFile: string;
  /** Bearer token to send, if any. */
  token?: string | undefined;
  /** Paths that must all answer 200, in order (the first one is quoted when the deadline passes). */
  paths: readonly string[];
}

/**
 * Waits until every path of `probe` answers 200, trusting the server's self-signed certificate from
 * `probe.certFile`, and returns that certificate (PEM).
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with the log tail when a process exits or the deadline passes.
 * @internal
 */
export async function waitReady(
  probe: ReadinessProbe,
  processes: readonly ManagedProcess[],
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  const [first = "/"] = probe.paths;
  let last = "no answer yet";
  for (;;) {
    signal?.throwIfAborted();
    const dead = processes.find((p) => p.exit() !== undefined);
    if (dead) throw startFailure(`${dead.name} exited (${describeExit(dead)}) during start`, dead);
    if (Date.now() > deadline) {
      throw startFailure(
        `${probe.name} not ready in time; last ${first}: ${last}`,
        processes.find((p) => p.name === probe.name),
      );
    }
    if (await fileExists(probe.certFile)) {
      const caPem = await readFile(probe.certFile, "utf8");
      const get = (path: string): Promise<HttpsResponse> =>
        httpsGet(`${probe.server}${path}`, probe.token, caPem, 2000).catch((err: unknown) => ({ status: 0, body: (err as Error).message }));
      let ready = true;
      for (const path of probe.paths) {
        const answer = await get(path);
        if (path === first) last = `${answer.status} ${answer.body.slice(0, 500)}`;
        if (answer.status !== 200) {
          ready = false;
          break;
        }
      }
      if (ready) return caPem;
    }
    await sleep(100, undefined, signal ? { signal } : {});
  }
}

/** Builds the start error, with the last 40 log lines of `proc`. @internal */
export function startFailure(what: string, proc: ManagedProcess | undefined): CocoonError {
  const tail = proc ? `\nlast ${proc.name} log lines:\n${proc.logTail(40).join("\n")}` : "";
  return new CocoonError("ERR_CONTROL_PLANE", `test control plane failed to start: ${what}${tail}`);
}

function describeExit(proc: ManagedProcess): string {
  const exit = proc.exit();
  return exit?.signal ? `signal ${exit.signal}` : `exit status ${exit?.code}`;
}
