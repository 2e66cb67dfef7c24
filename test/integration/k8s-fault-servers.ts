/**
 * Misbehaving loopback servers that stand in for the apiserver, so the integration tests can see what
 * a client does on a redirect, a reset, silence or a refused connection.
 *
 * @module
 */
import http from "node:http";
import net from "node:net";

/** A server on a loopback port; {@link LoopbackServer.close} destroys whatever it still holds. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests (or, for a raw TCP server, connections) received so far. */
  hits(): number;
  close(): Promise<void>;
}

async function listen(server: net.Server, counted: () => number): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    hits: counted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers every request with `status` and `Location: <target><path>`. */
export function startRedirector(target: string, status: number): Promise<LoopbackServer> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    req.on("end", () => res.writeHead(status, { location: `${target}${req.url ?? "/"}`, "content-length": 0 }).end());
  });
  return listen(server, () => hits);
}

/** Answers `200` with half of a JSON body it promised in full, then resets the connection (TCP RST). */
export function startResetter(): Promise<LoopbackServer> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json", "content-length": 1000 });
    res.write('{"kind":"Pod","apiVersion":"v1",', () => req.socket.resetAndDestroy());
  });
  return listen(server, () => hits);
}

/** Accepts TCP connections and never answers. */
export function startBlackHole(): Promise<LoopbackServer> {
  let hits = 0;
  const server = net.createServer(() => {
    hits++;
  });
  return listen(server, () => hits);
}

/** An `http://127.0.0.1:<port>` URL nothing listens on (the port was just released). */
export async function refusingUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
