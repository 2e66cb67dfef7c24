import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream";
import type { TokenIssuer } from "./token-issuer.js";

/** A running front; see {@link startRegistryFront}. */
export interface RegistryFront {
  /** Its loopback port: the registry's address as clients see it. */
  readonly port: number;
  /** The token realm to configure the registry with, `http://127.0.0.1:<port>/token`. */
  readonly realm: string;
  /** Stops listening and drops every connection. */
  stop(): Promise<void>;
}

// A host header we are willing to echo into a realm: a name or IP literal, and a port.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Listens on a free loopback port in front of the registry at `127.0.0.1:<upstreamPort>`, so that
 * the token endpoint is on the registry's own host and port, the only loopback realm
 * go-containerregistry (and `OCIRegistry`) accepts: `/token` is answered by `issuer`, everything
 * else is forwarded unchanged and streamed both ways, `Host` included (the registry builds its
 * upload `Location`s from it). The realm of each bearer challenge names the host the request came
 * to, so a proxy that forwards `Host` (as the integration tests' proxy does) is its own realm.
 *
 * @internal
 */
export async function startRegistryFront(issuer: TokenIssuer, upstreamPort: number): Promise<RegistryFront> {
  const agent = new Agent({ keepAlive: true });
  let realm = "";
  const server = createServer((req, res) => {
    if (req.url === "/token" || req.url?.startsWith("/token?") === true) issuer.handle(req, res);
    else forward(req, res, upstreamPort, agent, realm);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  realm = `http://127.0.0.1:${port}/token`;
  return {
    port,
    realm,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

function forward(req: IncomingMessage, res: ServerResponse, upstreamPort: number, agent: Agent, realm: string): void {
  const options = { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent };
  const upstream = request(options, (answer) => {
    res.writeHead(answer.statusCode ?? 502, withRealm(answer.headers, realm, req.headers.host));
    pipeline(answer, res, () => undefined);
  });
  upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  res.on("close", () => res.writableFinished || upstream.destroy()); // the client went away mid-call
  req.pipe(upstream);
}

function withRealm(headers: IncomingHttpHeaders, realm: string, host: string | undefined): IncomingHttpHeaders {
  const challenge = headers["www-authenticate"];
  if (challenge === undefined || host === undefined || !HOST.test(host)) return headers;
  return { ...headers, "www-authenticate": challenge.replace(`realm="${realm}"`, `realm="http://${host}/token"`) };
}
