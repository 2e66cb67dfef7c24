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
 * GETs `url` with a bearer token, trusting only `caPem`, within `timeoutMs`.
 *
 * @internal
 */
export function httpsGet(url: string, token: string, caPem: string, timeoutMs: number): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca: caPem, headers: { authorization: `Bearer ${token}` }, timeout: timeoutMs }, (res) => {
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

/**
 * Waits until kube-apiserver answers `/readyz` and the `default` namespace exists, trusting its
 * self-signed certificate from `certFile`, and returns that certificate (PEM).
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with the log tail when a process exits or the deadline passes.
 * @internal
 */
export async function waitReady(
  server: string,
  certFile: string,
  token: string,
  processes: readonly ManagedProcess[],
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  let last = "no answer yet";
  for (;;) {
    signal?.throwIfAborted();
    const dead = processes.find((p) => p.exit() !== undefined);
    if (dead) throw startFailure(`${dead.name} exited (${describeExit(dead)}) during start`, dead);
    if (Date.now() > deadline) {
      const apiserver = processes.find((p) => p.name === "kube-apiserver");
      throw startFailure(`kube-apiserver not ready in time; last /readyz: ${last}`, apiserver);
    }
    if (await fileExists(certFile)) {
      const caPem = await readFile(certFile, "utf8");
      const get = (path: string): Promise<HttpsResponse> =>
        httpsGet(`${server}${path}`, token, caPem, 2000).catch((err: unknown) => ({ status: 0, body: (err as Error).message }));
      const ready = await get("/readyz");
      last = `${ready.status} ${ready.body.slice(0, 500)}`;
      // The default namespace appears shortly after /readyz; tests expect it.
      if (ready.status === 200 && (await get("/api/v1/namespaces/default")).status === 200) return caPem;
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
