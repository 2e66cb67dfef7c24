import type http from "node:http";
import https from "node:https";
import { CocoonError } from "../../errors.js";
import { nodeHttp } from "../../internal/node-http.js";
import type { KubeRequest, KubeRequester, KubeResponse } from "./kube-request.js";

/** The TLS settings of the connections to the API server (`node:tls` names). @internal */
export interface SenderTLS {
  readonly ca?: string | Buffer | undefined;
  readonly cert?: string | Buffer | undefined;
  readonly key?: string | Buffer | undefined;
  readonly servername?: string | undefined;
  readonly rejectUnauthorized?: boolean | undefined;
}

/** What one request is sent with, read again for each request (a rotated token or certificate takes effect). @internal */
export interface SenderCredentials {
  readonly tls: SenderTLS;
  /** `Authorization` and any other header the credentials add. */
  readonly headers: Readonly<Record<string, string>>;
}

/** How a sender gets its credentials. @internal */
export interface SenderSettings {
  /** The API server's URL: its origin is the only one requests (and credentials) go to. */
  readonly server: string;
  /** The credentials of the next request; called for each. */
  readonly credentials: () => Promise<SenderCredentials> | SenderCredentials;
  /** Sent as `User-Agent` (the API server names the field manager of an update after it); `cocoon-common` by default. */
  readonly userAgent?: string | undefined;
}

const sameTLS = (a: SenderTLS, b: SenderTLS): boolean =>
  a.servername === b.servername &&
  a.rejectUnauthorized === b.rejectUnauthorized &&
  sameBytes(a.ca, b.ca) &&
  sameBytes(a.cert, b.cert) &&
  sameBytes(a.key, b.key);

function sameBytes(a: string | Buffer | undefined, b: string | Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

/**
 * The one HTTP stack of the {@link KubeRequester}s: `node:https` (or `node:http` for an `http://`
 * server) on one keep-alive agent per TLS setting, the previous one closed when the setting changes
 * (a rotated certificate). A path is resolved against `server` and refused unless it stays on its
 * origin; the answer is handed back as it came, a redirect included: nothing is followed.
 *
 * @throws {@link CocoonError} `ERR_KUBECONFIG` for a server that is not an `http(s)://` URL.
 * @internal
 */
export function httpsRequester(settings: SenderSettings): KubeRequester {
  let base: URL;
  try {
    base = new URL(settings.server);
  } catch (err) {
    throw new CocoonError("ERR_KUBECONFIG", `the API server ${JSON.stringify(settings.server)} is not a URL`, { cause: err });
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    throw new CocoonError("ERR_KUBECONFIG", `the API server ${JSON.stringify(settings.server)} is not an http(s) URL`);
  }
  const secure = base.protocol === "https:";
  const prefix = base.pathname.replace(/\/+$/, "");
  let agent: { tls: SenderTLS; agent: http.Agent } | undefined;
  const agentFor = (tls: SenderTLS): http.Agent => {
    if (agent !== undefined && sameTLS(agent.tls, tls)) return agent.agent;
    agent?.agent.destroy();
    const made = secure ? new https.Agent({ keepAlive: true, ...tls }) : new (nodeHttp().Agent)({ keepAlive: true });
    agent = { tls, agent: made };
    return made;
  };
  const send = async (request: KubeRequest): Promise<KubeResponse> => {
    if (!request.path.startsWith("/") || request.path.startsWith("//")) {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `a request path must start with one "/", got ${JSON.stringify(request.path)}`);
    }
    const url = new URL(prefix + request.path, base);
    if (url.origin !== base.origin) throw new CocoonError("ERR_INVALID_ARGUMENT", `the request path ${request.path} leaves ${base.origin}`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const { tls, headers } = await settings.credentials();
    request.signal?.throwIfAborted();
    const sent: Record<string, string> = {
      Accept: "application/json, */*",
      "User-Agent": settings.userAgent ?? "cocoon-common",
      ...headers,
    };
    if (request.body !== undefined) {
      sent["Content-Type"] = request.contentType ?? "application/json";
      // Node sends a DELETE's body neither chunked nor sized unless told its length: the server would read it as the next request.
      sent["Content-Length"] = String(Buffer.byteLength(request.body));
    }
    return new Promise((resolve, reject) => {
      const options = {
        method: request.method,
        headers: sent,
        agent: agentFor(tls),
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const req = (secure ? https.request : nodeHttp().request)(url, options, (response) =>
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }),
      );
      // TCP keep-alive probes find a peer that vanished without a FIN (a watch may stay quiet for minutes).
      req.on("socket", (socket) => socket.setKeepAlive(true, 30_000));
      req.on("error", (err) => reject(request.signal?.aborted ? request.signal.reason : err));
      req.end(request.body);
    });
  };
  return {
    server: base.origin,
    send,
    close: () => {
      agent?.agent.destroy();
      agent = undefined;
    },
  };
}
