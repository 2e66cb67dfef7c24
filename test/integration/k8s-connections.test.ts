import http from "node:http";
import net from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients, patchAnnotations, type AnnotationClients, type CocoonClients } from "../../src/k8s/index.js";
import { createTestNamespace, getControlPlane, userKubeConfig } from "./helpers.js";
import { adminKubeConfigAt, startTcpCounter, type TcpCounter } from "./k8s-counting-proxy.js";

const N = 20;

let ns: string;
let podName: string;
let relay: TcpCounter;

beforeAll(async () => {
  ns = await createTestNamespace("k8s-conn");
  const admin = getControlPlane().kubeConfig.makeApiClient(CoreV1Api);
  const pod = await admin.createNamespacedPod({
    namespace: ns,
    body: { metadata: { name: "target" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
  });
  podName = pod.metadata!.name!;
  relay = await startTcpCounter(getControlPlane().connection);
});

afterAll(() => relay.close());

/** N sequential patches, each changing the value so that every one is sent. */
async function patchNTimes(clients: AnnotationClients): Promise<void> {
  for (let i = 0; i < N; i++)
    await patchAnnotations(clients, { metadata: { name: podName, namespace: ns } }, { "conn.example.com/i": String(i) });
}

/** Counts the connections the relay saw during `fn`. */
async function connectionsDuring(fn: () => Promise<void>): Promise<number> {
  const before = relay.connections();
  await fn();
  return relay.connections() - before;
}

/** The same KubeConfig, pointed at another server URL. */
function retarget(kc: KubeConfig, server: string): KubeConfig {
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kc.clusters.map((c) => ({ ...c, server })),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.getCurrentContext(),
  });
  return copy;
}

describe("connection reuse", () => {
  it(`${N} sequential patches open 1 connection through createClients, ${N} through stock client-node (bearer token)`, async () => {
    const kc = adminKubeConfigAt(getControlPlane().connection, relay.server);
    const clients = createClients(kc);
    try {
      expect(await connectionsDuring(() => patchNTimes(clients))).toBe(1);
      expect(await connectionsDuring(() => patchNTimes({ core: kc.makeApiClient(CoreV1Api) }))).toBe(N);
    } finally {
      clients.close();
    }
  });

  it("reuses the connection of a client-certificate user too", async () => {
    const reader = retarget(userKubeConfig("conn-user", ["system:masters"]), relay.server);
    const clients = createClients(reader);
    try {
      expect(await connectionsDuring(() => patchNTimes(clients))).toBe(1);
    } finally {
      clients.close();
    }
  });

  it("after close(), the next requests open exactly one new connection", async () => {
    const clients = createClients(adminKubeConfigAt(getControlPlane().connection, relay.server));
    try {
      expect(await connectionsDuring(() => patchNTimes(clients))).toBe(1);
      clients.close();
      expect(await connectionsDuring(() => patchNTimes(clients))).toBe(1);
    } finally {
      clients.close();
    }
  });

  describe("through an HTTP CONNECT proxy (proxy-url)", () => {
    let proxy: http.Server;
    let tunnels = 0;
    const sockets = new Set<net.Socket>();

    beforeAll(async () => {
      proxy = http.createServer((_req, res) => res.writeHead(405).end());
      proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
        tunnels++;
        const [host, port] = (req.url ?? "").split(":");
        const target = net.connect(Number(port), host, () => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          target.write(head);
          target.pipe(client).pipe(target);
        });
        for (const socket of [client, target]) {
          sockets.add(socket);
          socket.on("error", () => void client.destroy());
          socket.on("close", () => sockets.delete(socket));
        }
        client.on("close", () => target.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    });

    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    });

    it(`keeps the tunnel: 1 CONNECT for ${N} patches, where stock client-node opens ${N}`, async () => {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
      const kc = adminKubeConfigAt(getControlPlane().connection, getControlPlane().server, { proxyUrl });
      const clients: CocoonClients = createClients(kc);
      try {
        tunnels = 0;
        await patchNTimes(clients);
        expect(tunnels).toBe(1);
        tunnels = 0;
        await patchNTimes({ core: kc.makeApiClient(CoreV1Api) });
        expect(tunnels).toBe(N);
      } finally {
        clients.close();
      }
    });
  });
});
