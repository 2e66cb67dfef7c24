import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/apis/v1/index.js";
import {
  finishPodDeletion,
  isCocoonError,
  keepNode,
  patch,
  patchAnnotations,
  patchClearVMRuntime,
  patchCocoonSetGeneration,
  patchHibernatedOnNode,
  patchHibernateState,
  patchKeepSnapshotOnDelete,
  patchLifecycleStatus,
  patchStatus,
  patchVMRuntime,
  releaseSeat,
  reportVM,
  watchCocoonHibernations,
  watchCocoonPods,
  watchCocoonSets,
  writePodStatus,
} from "../../src/k8s/index.js";
import { checkedNamespaceName, checkedObjectName } from "../../src/k8s/path-name.js";
import { registerNode } from "../../src/testing/index.js";
import { Annotation } from "../../src/meta/index.js";
import { startAPIServer, type HostileAPIServer } from "./support/api-server.js";

// Rule 1 of issue 33: a name or namespace that is not one path segment, or not a name the API
// server could have stored for its kind, is refused before any request.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

/** Names no Pod, Node, CocoonSet or CocoonHibernation can have. */
const BAD_NAMES = [".", "..", "a/b", "%2e%2e", "a%2Fb", "", "Demo-0", "x".repeat(254), "pöd", "-a", "a..b"];
/** Namespaces no namespace can have (DNS-1123 labels only: `a.b` is a subdomain, not a label). */
const BAD_NAMESPACES = [".", "..", "a/b", "%2e%2e", "a%2Fb", "", "Prod", "n".repeat(64), "nä", "a.b"];

const pod = (name: string, namespace: string) => ({
  metadata: { name, namespace, uid: "u-1", annotations: { [Annotation.VMID]: "vm-1" } },
});
const set = (name: string, namespace: string) => ({
  apiVersion: API_VERSION,
  kind: "CocoonSet",
  metadata: { name, namespace, uid: "u-1" },
});

type Call = (name: string, namespace: string) => Promise<unknown>;

/** Each helper that puts a name and a namespace into a path, with the field its message names. */
const HELPERS: readonly (readonly [helper: string, call: Call])[] = [
  ["patchAnnotations", (n, ns) => patchAnnotations(api.clients, pod(n, ns), { [Annotation.IP]: "10.0.0.1" })],
  ["patchKeepSnapshotOnDelete", (n, ns) => patchKeepSnapshotOnDelete(api.clients, pod(n, ns))],
  ["patchHibernateState", (n, ns) => patchHibernateState(api.clients, pod(n, ns), true)],
  ["patchCocoonSetGeneration", (n, ns) => patchCocoonSetGeneration(api.clients, pod(n, ns), 3)],
  ["patchHibernatedOnNode", (n, ns) => patchHibernatedOnNode(api.clients, set(n, ns), "node-1")],
  ["patch", (n, ns) => patch(api.clients, pod(n, ns), (copy) => void (copy.metadata.annotations = { [Annotation.VMID]: "vm-2" }))],
  ["patchStatus", (n, ns) => patchStatus(api.clients, set(n, ns), (copy) => void Object.assign(copy, { status: { phase: "Ready" } }))],
  ["releaseSeat", (n, ns) => releaseSeat(api.clients, pod(n, ns))],
  ["finishPodDeletion", (n, ns) => finishPodDeletion(api.clients, pod(n, ns))],
  ["writePodStatus", (n, ns) => writePodStatus(api.clients, pod(n, ns), { phase: "Pending", conditions: [] })],
  ["patchClearVMRuntime", (n, ns) => patchClearVMRuntime(api.clients, pod(n, ns))],
  ["patchVMRuntime", (n, ns) => patchVMRuntime(api.clients, pod(n, ns), { ip: "10.0.0.1" })],
  [
    "patchLifecycleStatus",
    (n, ns) => patchLifecycleStatus(api.clients, pod(n, ns), { state: "ready", observedGeneration: 0, message: "" }),
  ],
  ["reportVM", (n, ns) => reportVM(api.clients, pod(n, ns), { state: "ready", vm: { state: "absent" }, runtime: { ip: "10.0.0.1" } })],
  // The ./kubelet path: the same helpers on a KubeRequester.
  ["finishPodDeletion (requester)", (n, ns) => finishPodDeletion(api.requester, pod(n, ns))],
  ["writePodStatus (requester)", (n, ns) => writePodStatus(api.requester, pod(n, ns), { phase: "Pending", conditions: [] })],
  ["patchClearVMRuntime (requester)", (n, ns) => patchClearVMRuntime(api.requester, pod(n, ns))],
  ["patchVMRuntime (requester)", (n, ns) => patchVMRuntime(api.requester, pod(n, ns), { ip: "10.0.0.1" })],
  [
    "patchLifecycleStatus (requester)",
    (n, ns) => patchLifecycleStatus(api.requester, pod(n, ns), { state: "ready", observedGeneration: 0, message: "" }),
  ],
  [
    "reportVM (requester)",
    (n, ns) => reportVM(api.requester, pod(n, ns), { state: "ready", vm: { state: "absent" }, runtime: { ip: "10.0.0.1" } }),
  ],
  ["CocoonSet get", (n, ns) => api.clients.cocoonSets.get({ name: n, namespace: ns })],
  ["CocoonSet patch", (n, ns) => api.clients.cocoonSets.patch({ name: n, namespace: ns }, { spec: { suspend: true } })],
  ["CocoonSet patchStatus", (n, ns) => api.clients.cocoonSets.patchStatus({ name: n, namespace: ns }, { status: { phase: "Ready" } })],
  ["CocoonSet delete", (n, ns) => api.clients.cocoonSets.delete({ name: n, namespace: ns })],
  ["CocoonHibernation get", (n, ns) => api.clients.cocoonHibernations.get({ name: n, namespace: ns })],
  ["CocoonHibernation delete", (n, ns) => api.clients.cocoonHibernations.delete({ name: n, namespace: ns })],
];

async function refusal(call: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  const err: unknown = await Promise.resolve()
    .then(call)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!isCocoonError(err)) throw new Error(`expected a CocoonError, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

/** The message names the helper: `CocoonSet get` in `CocoonSet get: name …` or in `cannot get a CocoonSet …`. */
const names = (helper: string, message: string) =>
  helper
    .replace(" (requester)", "")
    .split(" ")
    .every((word) => message.includes(word));

describe("a hostile name never reaches a URL", () => {
  it.each(HELPERS)("%s refuses every bad name and namespace before any request", async (helper, call) => {
    api.handle((_req, res) => void res.writeHead(500).end());
    for (const name of BAD_NAMES) {
      const { code, message } = await refusal(() => call(name, "prod"));
      expect([name, code]).toEqual([name, "ERR_INVALID_ARGUMENT"]);
      expect(names(helper, message)).toBe(true);
      expect(message).toMatch(/name/);
    }
    for (const namespace of BAD_NAMESPACES) {
      const { code, message } = await refusal(() => call("demo-0", namespace));
      expect([namespace, code]).toEqual([namespace, "ERR_INVALID_ARGUMENT"]);
      expect(names(helper, message)).toBe(true);
      expect(message).toMatch(/namespace/);
    }
    expect(api.peer.seen.length).toBe(0);
  });

  it("releaseSeat on a pod named . says why, and sends no DELETE of every pod", async () => {
    api.handle((_req, res) => void res.writeHead(500).end());
    expect(await refusal(() => releaseSeat(api.clients, pod(".", "ns")))).toEqual({
      code: "ERR_INVALID_ARGUMENT",
      message: "releaseSeat: metadata.name \".\" is not a Pod name: may not be '.'",
    });
    expect(await refusal(() => finishPodDeletion(api.clients, pod("x", "..")))).toEqual({
      code: "ERR_INVALID_ARGUMENT",
      message: "finishPodDeletion: metadata.namespace \"..\" is not a namespace: may not be '..'",
    });
    expect(await refusal(() => writePodStatus(api.clients, pod("a%2Fb", "ns"), { phase: "Pending", conditions: [] }))).toEqual({
      code: "ERR_INVALID_ARGUMENT",
      message: "writePodStatus: metadata.name \"a%2Fb\" is not a Pod name: may not contain '%'",
    });
    expect(api.peer.seen.length).toBe(0);
  });

  it("a list, a create or a watch in a bad namespace is refused before any request", async () => {
    api.handle((_req, res) => void res.writeHead(500).end());
    const watches = [watchCocoonPods, watchCocoonSets, watchCocoonHibernations];
    for (const namespace of BAD_NAMESPACES) {
      for (const watch of watches) {
        for (const client of [api.clients, api.requester]) {
          const { code, message } = await refusal(() => Promise.resolve(watch(client, { namespace })));
          expect([namespace, code, message]).toEqual([namespace, "ERR_INVALID_ARGUMENT", expect.stringContaining("namespace")]);
        }
      }
      const listed = await refusal(() => api.clients.cocoonSets.list({ namespace }));
      expect([namespace, listed.code, listed.message]).toEqual([namespace, "ERR_INVALID_ARGUMENT", expect.stringContaining("namespace")]);
      const body = {
        apiVersion: API_VERSION,
        kind: "CocoonSet",
        metadata: { name: "sandbox", namespace },
        spec: { agent: { image: "x:1" } },
      } as const;
      const created = await refusal(() => api.clients.cocoonSets.create(body));
      expect([namespace, created.code, created.message]).toEqual([namespace, "ERR_INVALID_ARGUMENT", expect.stringContaining("namespace")]);
    }
    expect(await refusal(() => Promise.resolve(watchCocoonPods(api.clients, { namespace: ".." })))).toEqual({
      code: "ERR_INVALID_ARGUMENT",
      message: "watch Pods: namespace \"..\" is not a namespace: may not be '..'",
    });
    expect(api.peer.seen.length).toBe(0);
  });

  it("keepNode refuses a node name that is not a DNS-1123 subdomain before any request, on client-node's clients and on a requester", async () => {
    api.handle((_req, res) => void res.writeHead(500).end());
    const resources = { cpuCores: 1, memoryBytes: 2 ** 30, storageBytes: 2 ** 30, snapshotCache: { allocatableBytes: 2 ** 30 } };
    for (const client of [api.clients, api.requester]) {
      for (const name of BAD_NAMES) {
        const { code, message } = await refusal(() =>
          keepNode(client, { name, nodeIP: "10.0.0.1", resources, signal: AbortSignal.timeout(5_000) }),
        );
        expect([name, code, message]).toEqual([name, "ERR_INVALID_ARGUMENT", expect.stringContaining("keepNode")]);
      }
    }
    expect(api.peer.seen.length).toBe(0);
  });

  it("registerNode refuses a node name that is not a DNS-1123 subdomain before any request", async () => {
    api.handle((_req, res) => void res.writeHead(500).end());
    for (const name of BAD_NAMES.filter((n) => n !== "")) {
      const { code, message } = await refusal(() => registerNode(api.kubeConfig, { name }));
      expect([name, code, message]).toEqual([name, "ERR_INVALID_ARGUMENT", expect.stringContaining("registerNode: metadata.name")]);
    }
    expect(api.peer.seen.length).toBe(0);
  });
});

// A straightforward reading of apimachinery's rules, to hold the scanners to.
const LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const NAMESPACE = new RegExp(`^${LABEL}$`);
const segmentOK = (s: string) => s !== "." && s !== ".." && !s.includes("/") && !s.includes("%");
const nameOK = (s: string) => s !== "" && segmentOK(s) && s.length <= 253 && SUBDOMAIN.test(s);
const namespaceOK = (s: string) => s !== "" && segmentOK(s) && s.length <= 63 && NAMESPACE.test(s);
const accepts = (check: () => string) => {
  try {
    check();
    return true;
  } catch (err) {
    if (!isCocoonError(err, "ERR_INVALID_ARGUMENT")) throw err;
    return false;
  }
};

describe("the name check agrees with apimachinery's patterns", () => {
  const unit = fc.constantFrom("a", "z", "0", "9", "-", ".", "/", "%", "A", "_", "é", " ");
  const text = fc.oneof(
    fc.string({ unit, maxLength: 12 }),
    fc.string({ maxLength: 8 }),
    fc.stringMatching(/^[a-z0-9][-a-z0-9.]{0,300}$/),
    fc.stringMatching(/^[a-z0-9]{50,70}$/),
    fc.constantFrom(".", "..", "%2e%2e", "a%2Fb", "x".repeat(253), "x".repeat(254), "n".repeat(63), "n".repeat(64)),
  );
  const source = { helper: "test", field: "metadata.name" };

  it("checkedObjectName accepts exactly the DNS-1123 subdomains of at most 253 characters", () => {
    fc.assert(
      fc.property(text, (name) => accepts(() => checkedObjectName(name, "Pod", source)) === nameOK(name)),
      { numRuns: 2000 },
    );
  });

  it("checkedNamespaceName accepts exactly the DNS-1123 labels of at most 63 characters", () => {
    fc.assert(
      fc.property(text, (namespace) => accepts(() => checkedNamespaceName(namespace, source)) === namespaceOK(namespace)),
      { numRuns: 2000 },
    );
  });
});
