import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import type { TestCertificate } from "./test-ca.js";

/** An HTTPS server that asks every client for a certificate, and records what it got. */
export interface MTLSPeer {
  /** `https://127.0.0.1:port`. */
  readonly origin: string;
  /** TLS handshakes completed, whether or not a request followed. */
  readonly handshakes: number;
  /** The subject CN of each client certificate presented, one per handshake that had one. */
  readonly presented: readonly string[];
  /** Every request's method and path. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** Starts an {@link MTLSPeer} on loopback that answers each request with `answer(path)`. */
export async function startMTLSPeer(
  tls: TestCertificate,
  answer: (path: string) => { status: number; headers?: Record<string, string>; body?: unknown },
): Promise<MTLSPeer> {
  let handshakes = 0;
  const presented: string[] = [];
  const requests: string[] = [];
  const server: Server = createServer({ ...tls, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    requests.push(`${req.method ?? ""} ${req.url ?? ""}`);
    req.resume();
    req.on("end", () => {
      const { status, headers = {}, body } = answer(req.url ?? "");
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    });
  });
  const sockets = new Set<TLSSocket>();
  server.on("secureConnection", (socket: TLSSocket) => {
    handshakes++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const cn = socket.getPeerCertificate().subject?.CN;
    if (typeof cn === "string") presented.push(cn);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get handshakes() {
      return handshakes;
    },
    presented,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
