/**
 * A TCP relay to an API server that a test can close like a gate: open connections are cut and
 * new ones wait, unanswered, until it opens again. TLS passes through untouched.
 *
 * @module
 */
import net from "node:net";

/** See {@link startTcpGate}. */
export interface TcpGate {
  /** `https://127.0.0.1:<port>`: the API server, through the gate. */
  readonly server: string;
  /** Cuts every open connection; connections opened from now on wait until {@link TcpGate.open}. */
  close(): void;
  /** Lets the waiting connections (and new ones) through to the API server. */
  open(): void;
  /** Connections accepted so far. */
  connections(): number;
  /** Stops the relay and cuts everything. */
  shutdown(): Promise<void>;
}

/** Starts a gate in front of `upstream` (`https://host:port`), open. */
export async function startTcpGate(upstream: string): Promise<TcpGate> {
  const target = new URL(upstream);
  const sockets = new Set<net.Socket>();
  const waiting: net.Socket[] = [];
  let closed = false;
  let connections = 0;
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const relay = (client: net.Socket): void => {
    if (client.destroyed) return;
    const server = net.connect(Number(target.port), target.hostname);
    track(server);
    client.pipe(server).pipe(client);
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
    client.resume();
  };
  const listener = net.createServer({ pauseOnConnect: true }, (client) => {
    connections++;
    track(client);
    if (closed) waiting.push(client);
    else relay(client);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return {
    server: `https://127.0.0.1:${(listener.address() as net.AddressInfo).port}`,
    close() {
      closed = true;
      for (const socket of sockets) socket.destroy();
    },
    open() {
      closed = false;
      for (const client of waiting.splice(0)) relay(client);
    },
    connections: () => connections,
    async shutdown() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
