import { createServer as createHTTPServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHTTPSServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { TestCertificate } from "./test-ca.js";

/** One request a peer received: what the client sent, headers lower-cased. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query, e.g. `/v2/vm/manifests/hibernate`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body (bodies here are small). */
  readonly body: Buffer;
}

/** Answers one request; may hang, stream, or destroy the socket, as a hostile peer does. */
export type PeerHandler = (req: SeenRequest, res: ServerResponse, peer: Peer) => void | Promise<void>;

/** A real HTTP or HTTPS server on loopback, known to the client by its own host name. */
export interface Peer {
  /** `name:port`, the host the client addresses, e.g. `registry.test:40123`. */
  readonly host: string;
  /** `https://name:port` or `http://name:port`. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly seen: SeenRequest[];
  /** Replaces the handler (tests reuse a peer across cases). */
  handle(handler: PeerHandler): void;
  close(): Promise<void>;
}

/** Starts a peer called `name` (a `*.test` name, resolved to loopback by the hostile client). */
export async function startPeer(name: string, tls: TestCertificate | undefined, handler: PeerHandler = notFound): Promise<Peer> {
  let current = handler;
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const request: SeenRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(parts) };
      seen.push(request);
      Promise.resolve(current(request, res, peer)).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  };
  const server: Server = tls === undefined ? createHTTPServer(onRequest) : createHTTPSServer({ ...tls }, onRequest);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("secureConnection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `${name}:${(server.address() as AddressInfo).port}`;
  const peer: Peer = {
    host,
    origin: `${tls === undefined ? "http" : "https"}://${host}`,
    seen,
    handle(next) {
      current = next;
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return peer;
}

/** A 404 with an OCI error body, what a registry sends for an unknown manifest. */
export const notFound: PeerHandler = (_req, res) => {
  json(res, 404, { errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown" }] });
};

/** Sends `body` as JSON with `status` and extra headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
