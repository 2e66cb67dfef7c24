// Calls through createClients (client-node's own HTTP library on shared connections) on the real
// apiserver, and what the caller and the server see. Each case has one table of exact observations
// per client-node line, so every difference a user could notice is written down here (issue #13:
// the transport).
import { createRequire } from "node:module";
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callOptions } from "../../src/k8s/call-options.js";
import { createClients, patchAnnotations, statusReason, type CocoonClients, type CreateClientsOptions } from "../../src/k8s/index.js";
import { createCertificateAuthority } from "../../src/testing/control-plane/x509.js";
import { createTestNamespace, getControlPlane } from "./helpers.js";
import {
  adminKubeConfigAt,
  adminKubeConfigOverHttp,
  startRecordingProxy,
  startTcpCounter,
  type RecordedRequest,
  type RecordingProxy,
  type TcpCounter,
} from "./k8s-counting-proxy.js";
import {
  CONNECTIONS,
  HEADERS,
  N,
  NETWORK_ERRORS,
  PENDING,
  PENDING_AFTER_MS,
  REDIRECTS,
  STATUS_ERRORS,
  type ErrorShape,
  type Line,
  type Table,
} from "./k8s-transports-table.js";
import { refusingUrl, startBlackHole, startRedirector, startResetter, type LoopbackServer } from "./k8s-fault-servers.js";

const clientNodeVersion = (createRequire(import.meta.url)("@kubernetes/client-node/package.json") as { version: string }).version;
const line: Line = clientNodeVersion.startsWith("1.") ? "1.x" : "2.x";

let ns: string;
let pod: V1Pod;
let proxy: RecordingProxy;

beforeAll(async () => {
  ns = await createTestNamespace("k8s-transports");
  pod = await getControlPlane()
    .kubeConfig.makeApiClient(CoreV1Api)
    .createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: "target" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
    });
  proxy = await startRecordingProxy(getControlPlane().connection);
});

afterAll(() => proxy.close());

/** Checks `observed` against the row of this run's client-node line. */
function expectRow<T>(table: Table<T>, observed: T): void {
  expect(observed).toEqual(table[line]);
}

function mask(text: string): string {
  return text.replaceAll(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT").replaceAll(ns, "NS");
}

function errorShape(err: unknown): ErrorShape {
  if (!(err instanceof Error)) return { class: typeof err, name: "", code: undefined, message: String(err) };
  const fields = err as Error & { code?: unknown; cause?: unknown };
  const shape: ErrorShape = {
    class: err.constructor.name,
    name: err.name,
    code: fields.code,
    message: mask(err.message.split("\n")[0] ?? ""),
  };
  if (fields.cause instanceof Error) {
    const cause = fields.cause as Error & { code?: unknown };
    shape.cause = `${cause.constructor.name} ${String(cause.code)}: ${mask(cause.message)}`;
  }
  return shape;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection, got success");
    },
    (err: unknown) => err,
  );
}

/** The rejection of `promise`, or {@link PENDING} when it has not settled after {@link PENDING_AFTER_MS}. */
async function rejectionOrPending(promise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<typeof PENDING>((resolve) => (timer = setTimeout(() => resolve(PENDING), PENDING_AFTER_MS)));
  try {
    return await Promise.race([rejection(promise), pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` on clients made with `options` for `kubeConfig`, closing them afterwards. */
async function withClients<T>(
  kubeConfig: KubeConfig,
  fn: (c: CocoonClients) => Promise<T>,
  options: CreateClientsOptions = {},
): Promise<T> {
  const clients = createClients(kubeConfig, options);
  try {
    return await fn(clients);
  } finally {
    clients.close();
  }
}

/** A request the redirect led to: method, status, and whether the token went along. */
function followedRequest(r: RecordedRequest): string {
  return `${r.method} ${String(r.status)} ${r.headers.authorization === undefined ? "without" : "with"} the token`;
}

/**
 * The headers case, by default and with keep-alive options; each run names its pod by a tag of the
 * same length, so the bodies are the same length too.
 */
const HEADER_RUNS: [string, string, CreateClientsOptions][] = [
  ["by default", "deflt", {}],
  ["with an idle-socket timeout", "idlet", { agentOptions: { timeout: 30_000 } }],
];

describe(`createClients on client-node ${line}`, () => {
  it.each(HEADER_RUNS)(
    "sends these headers, per method and patch strategy, and is named by them in managedFields, %s",
    async (_run, tag, options) => {
      proxy.reset();
      const name = `headers-${tag}`;
      const managers = await withClients(
        proxy.kubeConfig(),
        async (c) => {
          const own = await c.core.createNamespacedPod({ namespace: ns, body: { metadata: { name }, spec: pod.spec! } });
          await c.core.readNamespacedPod({ name, namespace: ns });
          for (const strategy of [PatchStrategy.JsonPatch, PatchStrategy.MergePatch, PatchStrategy.StrategicMergePatch]) {
            const body =
              strategy === PatchStrategy.JsonPatch
                ? [{ op: "add", path: "/metadata/labels", value: { s: "1" } }]
                : { metadata: { labels: { s: "2" } } };
            await c.core.patchNamespacedPod({ name, namespace: ns, body }, setHeaderOptions("Content-Type", strategy));
          }
          await c.core.patchNamespacedPod(
            {
              name,
              namespace: ns,
              fieldManager: "transports",
              force: true,
              body: { apiVersion: "v1", kind: "Pod", metadata: { name, labels: { s: "3" } } },
            },
            setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply),
          );
          const patched = await patchAnnotations(c, own, { "transports.example.com/a": tag });
          await c.core.deleteNamespacedPod({ name: "absent", namespace: ns }).catch(() => undefined);
          return (patched.metadata?.managedFields ?? []).map((f) => `${f.manager ?? "-"} ${f.operation ?? "-"}`).sort();
        },
        options,
      );
      const distinct = (header: string) => [...new Set(proxy.requests.map((r) => String(r.headers[header])))];
      const seen = {
        "user-agent": distinct("user-agent"),
        accept: distinct("accept"),
        "accept-encoding": distinct("accept-encoding"),
        connection: distinct("connection"),
        requests: proxy.requests.map(
          (r) => `${r.method} ${r.contentType ?? "-"} ${r.headers["content-length"] ?? "-"} ${r.headers["transfer-encoding"] ?? "-"}`,
        ),
        managedFields: managers,
      };
      expectRow(HEADERS, seen);
    },
  );

  it("follows, or not, a redirect to the apiserver", async () => {
    const observed: Record<string, unknown> = {};
    for (const status of [302, 307]) {
      const redirector: LoopbackServer = await startRedirector(proxy.kubeConfig().getCurrentCluster()!.server, status);
      proxy.reset();
      try {
        const kc = adminKubeConfigOverHttp(getControlPlane().connection, redirector.url);
        const outcome = await withClients(kc, async (c) => {
          const read = await c.core.readNamespacedPod({ name: "target", namespace: ns }).then((p) => p.metadata?.name, errorShape);
          const patched = await patchAnnotations(c, pod, { "transports.example.com/r": `fetch-${status}` }).then(
            (p) => p.metadata?.annotations?.["transports.example.com/r"],
            errorShape,
          );
          return { read, patched };
        });
        observed[String(status)] = { ...outcome, redirects: redirector.hits(), followed: proxy.requests.map(followedRequest) };
      } finally {
        await redirector.close();
      }
    }
    expectRow(REDIRECTS, observed);
  });

  it("rejects 404, 409 and 422 with these errors", async () => {
    const observed = await withClients(getControlPlane().kubeConfig, async (c) => {
      const errors = {
        404: await rejection(c.core.readNamespacedPod({ name: "absent", namespace: ns })),
        409: await rejection(c.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: "target" }, spec: pod.spec! } })),
        422: await rejection(patchAnnotations(c, pod, { "not a valid key": "x" })),
      };
      return Object.fromEntries(
        Object.entries(errors).map(([status, err]) => {
          const fields = err as { body?: unknown; headers?: Record<string, string> };
          return [
            status,
            {
              ...errorShape(err),
              body:
                typeof fields.body === "string"
                  ? `string of ${fields.body.length}, reason ${statusReason(err) ?? "-"}`
                  : typeof fields.body,
              headers: Object.keys(fields.headers ?? {}).sort(),
            },
          ];
        }),
      );
    });
    expectRow(STATUS_ERRORS, observed);
  });

  it("rejects network failures, timeouts and aborts with these errors", async () => {
    const connection = getControlPlane().connection;
    const observed: Record<string, ErrorShape | typeof PENDING> = {};
    const read = (c: CocoonClients) => c.core.readNamespacedPod({ name: "target", namespace: ns });

    observed["refused"] = errorShape(
      await withClients(adminKubeConfigOverHttp(connection, await refusingUrl()), (c) => rejection(read(c))),
    );

    const resetter = await startResetter();
    try {
      const reset = await withClients(adminKubeConfigOverHttp(connection, resetter.url), (c) => rejectionOrPending(read(c)));
      observed["reset mid-response"] = reset === PENDING ? PENDING : errorShape(reset);
    } finally {
      await resetter.close();
    }

    const wrongCa = { ...connection, caPem: createCertificateAuthority("not the apiserver's CA").certPem };
    observed["wrong CA"] = errorShape(await withClients(adminKubeConfigAt(wrongCa, connection.server), (c) => rejection(read(c))));

    const blackHole = await startBlackHole();
    try {
      await withClients(adminKubeConfigOverHttp(connection, blackHole.url), async (c) => {
        const target = { metadata: { name: "target", namespace: ns } };
        observed["timeout (AbortSignal.timeout)"] = errorShape(
          await rejection(patchAnnotations(c, target, { a: "1" }, { signal: AbortSignal.timeout(200) })),
        );
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 200);
        observed["abort in flight"] = errorShape(await rejection(patchAnnotations(c, target, { a: "1" }, { signal: controller.signal })));
        const raw = new AbortController();
        setTimeout(() => raw.abort(), 200);
        observed["abort in flight, client-node's own call"] = errorShape(
          await rejection(c.core.readNamespacedPod({ name: "target", namespace: ns }, callOptions({ signal: raw.signal }))),
        );
        observed["abort before the call"] = errorShape(
          await rejection(patchAnnotations(c, target, { a: "1" }, { signal: AbortSignal.abort() })),
        );
      });
    } finally {
      await blackHole.close();
    }
    expectRow(NETWORK_ERRORS, observed);
  });

  it(`opens this many TCP connections for ${N} sequential and ${N} concurrent reads`, async () => {
    const relay: TcpCounter = await startTcpCounter(getControlPlane().connection);
    try {
      const kc = adminKubeConfigAt(getControlPlane().connection, relay.server);
      const read = (c: CocoonClients) => c.core.readNamespacedPod({ name: "target", namespace: ns });
      const sequential = await withClients(kc, async (c) => {
        for (let i = 0; i < N; i++) await read(c);
        return relay.connections();
      });
      const before = relay.connections();
      const concurrent = await withClients(kc, async (c) => {
        await Promise.all(Array.from({ length: N }, () => read(c)));
        return relay.connections() - before;
      });
      expectRow(CONNECTIONS, { sequential, concurrent });
    } finally {
      await relay.close();
    }
  });
});
