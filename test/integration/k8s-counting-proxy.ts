/**
 * Proxies that watch the wire between a client and the test kube-apiserver, so the integration
 * tests count requests and connections themselves instead of trusting the code under test.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { type CocoonClients, createClients } from "../../src/k8s/index.js";
import type { ControlPlaneConnection } from "../../src/testing/index.js";
import { createTestNamespace, getControlPlane } from "./helpers.js";

/** One request as the proxy received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/namespaces/ns/pods/p`. */
  path: string;
  contentType: string | undefined;
  /** Every request header, as Node parsed them (names lower-cased). */
  headers: http.IncomingHttpHeaders;
  body: string;
  status?: number;
  /** `performance.now()` when the whole request had arrived. */
  receivedAt: number;
  /** `performance.now()` when the whole response had been handed to the client. */
  answeredAt?: number;
}

/** A recording HTTP reverse proxy in front of the apiserver; see {@link startRecordingProxy}. */
export interface RecordingProxy {
  /** Requests received since the last {@link RecordingProxy.reset}, in arrival order. */
  readonly requests: RecordedRequest[];
  /** TCP connections accepted since the last reset. */
  connections(): number;
  /** A `KubeConfig` for the admin that talks to the apiserver through this proxy (plain HTTP to the proxy). */
  kubeConfig(): KubeConfig;
  /** Forgets recorded requests and connections. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a reverse proxy on a loopback port: plain HTTP in, HTTPS (trusting the control plane's CA)
 * out. It records method, path, content type, body and status of every request and counts the
 * TCP connections clients open to it. Credentials pass through untouched.
 */
export async function startRecordingProxy(connection: ControlPlaneConnection): Promise<RecordingProxy> {
  const upstream = new URL(connection.server);
  const agent = new https.Agent({ keepAlive: true, ca: connection.caPem });
  let requests: RecordedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const record: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        headers: req.headers,
        body: body.toString("utf8"),
        receivedAt: performance.now(),
      };
      res.on("finish", () => (record.answeredAt = performance.now()));
      requests.push(record);
      const headers = { ...req.headers, host: upstream.host };
      delete headers.connection;
      const out = https.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          record.status = answer.statusCode ?? 0;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", (err) => {
        res.writeHead(502);
        res.end(err.message);
      });
      out.end(body);
    });
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    get requests() {
      return requests;
    },
    connections: () => connections,
    kubeConfig: () => adminKubeConfigOverHttp(connection, url),
    reset: () => {
      requests = [];
      connections = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** A TCP relay that counts connections; TLS passes through it untouched. */
export interface TcpCounter {
  /** `https://127.0.0.1:<port>`: the apiserver, reached through the relay. */
  readonly server: string;
  connections(): number;
  close(): Promise<void>;
}

/** Starts a TCP relay to the apiserver of `connection`, counting the connections clients open. */
export async function startTcpCounter(connection: ControlPlaneConnection): Promise<TcpCounter> {
  const upstream = new URL(connection.server);
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const target = net.connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(target).pipe(client);
    client.on("close", () => target.destroy());
    target.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server: `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An admin `KubeConfig` for `server` (e.g. a {@link TcpCounter}), trusting the control plane's CA. */
export function adminKubeConfigAt(connection: ControlPlaneConnection, server: string, extra: { proxyUrl?: string } = {}): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: "direct", server, caData: Buffer.from(connection.caPem).toString("base64"), skipTLSVerify: false, ...extra },
    { name: "admin", token: connection.adminToken },
  );
  return kc;
}

/** An admin `KubeConfig` for a plain-HTTP `server` (a proxy or a fake apiserver on loopback), with the admin's token. */
export function adminKubeConfigOverHttp(connection: ControlPlaneConnection, server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "http", server, skipTLSVerify: true }, { name: "admin", token: connection.adminToken });
  return kc;
}

/** What a proxied integration suite works with: its namespace, the recording proxy, clients through it, admin clients. */
export interface ProxiedSuite {
  ns: string;
  proxy: RecordingProxy;
  viaProxy: CocoonClients;
  admin: CocoonClients;
}

/** Opens a {@link ProxiedSuite} on the shared control plane, in a fresh namespace named after `prefix`. */
export async function openProxiedSuite(prefix: string): Promise<ProxiedSuite> {
  const ns = await createTestNamespace(prefix);
  const proxy = await startRecordingProxy(getControlPlane().connection);
  return { ns, proxy, viaProxy: createClients(proxy.kubeConfig()), admin: createClients(getControlPlane().kubeConfig) };
}

/** Closes what {@link openProxiedSuite} opened. */
export async function closeProxiedSuite(suite: Omit<ProxiedSuite, "ns">): Promise<void> {
  suite.viaProxy.close();
  suite.admin.close();
  await suite.proxy.close();
}
