import https from "node:https";
import type { ControlPlaneConnection } from "../src/testing/index.js";

/** The floor of the k8s bench: merge patches over one keep-alive `node:https` agent, no client library. */
export interface RawPatcher {
  /** Sends `body` as a JSON merge patch to `path` and resolves to the parsed response (rejects on a non-2xx status). */
  patch(path: string, body: object): Promise<{ metadata?: { annotations?: Record<string, string> } }>;
  /** The keep-alive agent it sends with. */
  readonly agent: https.Agent;
  /** Closes the agent's connections. */
  close(): void;
}

/** Makes a {@link RawPatcher} with the control plane's CA and admin bearer token (what `kubeConfig` uses). */
export function rawPatcher(connection: ControlPlaneConnection): RawPatcher {
  const url = new URL(connection.server);
  const agent = new https.Agent({ keepAlive: true, ca: connection.caPem });
  const authorization = `Bearer ${connection.adminToken}`;
  return {
    patch: (path, body) =>
      new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = https.request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: "PATCH",
            agent,
            headers: {
              Authorization: authorization,
              Accept: "application/json",
              "Content-Type": "application/merge-patch+json",
              "Content-Length": Buffer.byteLength(payload),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("error", reject);
            res.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              const status = res.statusCode ?? 0;
              if (status < 200 || status > 299) reject(new Error(`PATCH ${path}: HTTP ${status}: ${text}`));
              else resolve(JSON.parse(text) as never);
            });
          },
        );
        req.on("error", reject);
        req.end(payload);
      }),
    agent,
    close: () => agent.destroy(),
  };
}
