/**
 * A forward proxy on loopback, as a user's HTTP proxy would be: it takes absolute-URI requests
 * (`GET http://host/path`) and `CONNECT` tunnels, and reads the HTTP spoken inside each tunnel, so
 * it counts every request that passes through it by method, whichever way the client came.
 *
 * @module
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A proxy started by {@link startForwardProxy}. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, for `ProxyAgent` or `HTTP_PROXY`. */
  readonly url: string;
  /** Requests forwarded so far, per method. */
  counts(): Record<string, number>;
  /** `CONNECT` tunnels opened so far. */
  tunnels(): number;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port; it forwards plain HTTP only (the test registry's). */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const counts: Record<string, number> = {};
  let tunnels = 0;
  /** The `host:port` each tunnel was opened to, by its socket. */
  const tunnelTargets = new WeakMap<Socket, string>();
  const server = http.createServer((req, res) => {
    const method = req.method ?? "";
    counts[method] = (counts[method] ?? 0) + 1;
    const tunnel = tunnelTargets.get(req.socket);
    const target = new URL(tunnel === undefined ? (req.url ?? "") : `http://${tunnel}${req.url ?? ""}`);
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      { host: target.hostname, port: target.port, method, path: `${target.pathname}${target.search}`, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    tunnels++;
    tunnelTargets.set(socket, req.url ?? "");
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) socket.unshift(head);
    // The tunnel carries plain HTTP to the registry: this server parses it as a connection of its own.
    server.emit("connection", socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: () => ({ ...counts }),
    tunnels: () => tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
