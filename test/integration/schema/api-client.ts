/**
 * A raw HTTPS client for the custom resources of the shared control plane: one keep-alive agent,
 * plain JSON in and out, so every field reaches the server exactly as written (client-node's typed
 * models would drop or rename fields) and every answer comes back whole.
 *
 * @module
 */
import { Agent, request } from "node:https";
import type { ControlPlaneConnection } from "../../../src/testing/index.js";

/** A server answer: the HTTP status and the parsed JSON body (`undefined` when empty). */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** The two custom resources under test. */
export type Plural = "cocoonsets" | "cocoonhibernations";

const API = "/apis/cocoonset.cocoonstack.io/v1";

/** Sends JSON requests to one namespace of the control plane; see {@link createApiClient}. */
export interface ApiClient {
  /** `POST` a create; `dryRun` (the default) stores nothing. */
  create(plural: Plural, body: unknown, dryRun?: boolean): Promise<ApiAnswer>;
  /** `PUT` the main resource (`subresource` unset) or `/status`, as a dry run. */
  dryRunUpdate(plural: Plural, name: string, body: unknown, subresource?: "status"): Promise<ApiAnswer>;
  /** Closes the pooled connections. */
  close(): void;
}

/** Returns an {@link ApiClient} for `namespace`, authenticated as the admin of `connection`. */
export function createApiClient(connection: ControlPlaneConnection, namespace: string): ApiClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: connection.caPem });
  const headers = { authorization: `Bearer ${connection.adminToken}`, "content-type": "application/json", accept: "application/json" };
  const send = (method: string, path: string, body: unknown): Promise<ApiAnswer> =>
    new Promise((resolve, reject) => {
      const req = request(new URL(path, connection.server), { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : (JSON.parse(text) as unknown) });
        });
      });
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const collection = (plural: Plural) => `${API}/namespaces/${namespace}/${plural}`;
  return {
    create: (plural, body, dryRun = true) => send("POST", `${collection(plural)}${dryRun ? "?dryRun=All" : ""}`, body),
    dryRunUpdate: (plural, name, body, subresource) =>
      send("PUT", `${collection(plural)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ""}?dryRun=All`, body),
    close: () => agent.destroy(),
  };
}

/** Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
