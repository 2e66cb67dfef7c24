import { ApiException, type V1Lease, type V1Node } from "@kubernetes/client-node";
import { describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../../errors.js";
import { adoptedNode } from "./adopt-node.js";
import { keepNode, keeperSettings, NODE_HEARTBEAT, type KeepNodeClients } from "./keep-node.js";
import { notReady, stampConditions } from "./node-heartbeat.js";
import { renewedLease } from "./node-lease.js";

const PROVIDER = { key: "virtual-kubelet.io/provider", value: "cocoon", effect: "NoSchedule" };
const NOT_READY = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };
const MEASURED = { cpuCores: 8, memoryBytes: 2 ** 34, storageBytes: 2 ** 37, snapshotCache: { allocatableBytes: 2 ** 36 } };

describe("adoptedNode", () => {
  const wanted: V1Node = { metadata: { name: "n", labels: { pool: "a", role: "" } }, spec: { taints: [PROVIDER] } };

  it("keeps what the server and its controllers put there and adds what is missing", () => {
    const stored: V1Node = { metadata: { name: "n", uid: "u", labels: { pool: "old", zone: "z" } }, spec: { taints: [NOT_READY] } };
    expect(adoptedNode(stored, wanted)).toEqual({
      metadata: { name: "n", uid: "u", labels: { pool: "a", role: "", zone: "z" } },
      spec: { taints: [NOT_READY, PROVIDER] },
    });
  });

  it("returns undefined when the stored node already has it all", () => {
    const stored: V1Node = { metadata: { name: "n", labels: { pool: "a", role: "", zone: "z" } }, spec: { taints: [PROVIDER, NOT_READY] } };
    expect(adoptedNode(stored, wanted)).toBeUndefined();
  });

  it("never changes a providerID that is set, and sets one that is not", () => {
    const withID = (providerID: string | undefined): V1Node => ({
      ...wanted,
      spec: { taints: [PROVIDER], ...(providerID && { providerID }) },
    });
    expect(adoptedNode(withID("cloud://a"), withID("cloud://b"))).toBeUndefined();
    expect(adoptedNode(withID(undefined), withID("cloud://b"))?.spec?.providerID).toBe("cloud://b");
  });
});

describe("renewedLease", () => {
  const now = new Date("2026-12-04T10:00:00.123Z");

  it("is the Lease the kubelet writes: holder, duration, renew time, owned by the Node", () => {
    const lease = renewedLease({ name: "n", uid: "u-1" }, 40, now);
    expect(JSON.parse(JSON.stringify(lease))).toEqual({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "n", namespace: "kube-node-lease", ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "n", uid: "u-1" }] },
      spec: { holderIdentity: "n", leaseDurationSeconds: 40, renewTime: "2026-12-04T10:00:00.123000Z" },
    });
  });

  it("keeps the stored copy's resourceVersion, and replaces an owner reference to another uid", () => {
    const base: V1Lease = {
      metadata: { name: "n", resourceVersion: "7", ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "n", uid: "old" }] },
      spec: { holderIdentity: "n", leaseTransitions: 2 },
    };
    const lease = renewedLease({ name: "n", uid: "new" }, 40, now, base);
    expect([lease.metadata?.resourceVersion, lease.metadata?.ownerReferences?.[0]?.uid, lease.spec?.leaseTransitions]).toEqual([
      "7",
      "new",
      2,
    ]);
    expect(base.metadata?.ownerReferences?.[0]?.uid).toBe("old"); // the stored copy is not changed
  });
});

describe("stampConditions", () => {
  const ready = { type: "Ready", status: "True", reason: "KubeletReady", message: "ok" };

  it("stamps every heartbeat now, and keeps a transition time while the status stays", () => {
    const first = stampConditions([ready], [], new Date("2026-12-04T10:00:00.900Z"));
    expect(first).toEqual([{ ...ready, lastHeartbeatTime: "2026-12-04T10:00:00Z", lastTransitionTime: "2026-12-04T10:00:00Z" }]);
    const later = stampConditions([ready], first, new Date("2026-12-04T10:01:00Z"));
    expect([later[0]?.lastHeartbeatTime, later[0]?.lastTransitionTime]).toEqual(["2026-12-04T10:01:00Z", "2026-12-04T10:00:00Z"]);
    const stopped = stampConditions(notReady([ready], "the virtual kubelet stopped"), later, new Date("2026-12-04T10:02:00Z"));
    expect(stopped).toEqual([
      {
        type: "Ready",
        status: "False",
        reason: "KubeletNotReady",
        message: "the virtual kubelet stopped",
        lastHeartbeatTime: "2026-12-04T10:02:00Z",
        lastTransitionTime: "2026-12-04T10:02:00Z",
      },
    ]);
  });
});

describe("keeperSettings", () => {
  const signal = new AbortController().signal;

  it("defaults to virtual-kubelet's schedule: a 40 s Lease renewed every 10 s, the status every minute", () => {
    expect(keeperSettings({ signal })).toEqual({ signal, ...NODE_HEARTBEAT, logger: undefined, notReadyOnStop: true });
    expect(keeperSettings({ signal, leaseDurationSeconds: 8 }).leaseRenewMs).toBe(2_000);
  });

  it.each([
    [{ leaseRenewMs: 40_000 }, "keepNode: leaseRenewMs must be a positive number up to 39999, got 40000"],
    [{ leaseDurationSeconds: 1.5 }, "keepNode: leaseDurationSeconds must be an integer, got 1.5"],
    [{ statusReportMs: 0 }, "keepNode: statusReportMs must be a positive number up to 2147483647, got 0"],
    [{ requestTimeoutMs: Number.NaN }, "keepNode: requestTimeoutMs must be a positive number up to 2147483647, got NaN"],
  ])("refuses %o", (options, message) => {
    expect(() => keeperSettings({ signal, ...options })).toThrow(message);
  });
});

describe("keepNode", () => {
  /** Fake clients that record each call and answer as a server would; `failLease` refuses that many renewals. */
  function fakeClients(failLease = 0): { clients: KeepNodeClients; calls: string[] } {
    const calls: string[] = [];
    const node = (body: V1Node): V1Node => ({ ...body, apiVersion: "v1", kind: "Node", metadata: { ...body.metadata, uid: "u-1" } });
    let stored: V1Lease | undefined;
    const lease = (body: V1Lease): V1Lease => (stored = { ...body, metadata: { ...body.metadata, resourceVersion: "1" } });
    const clients = {
      core: {
        createNode: ({ body }: { body: V1Node }) => (calls.push("create node"), Promise.resolve(node(body))),
        patchNodeStatus: ({ name }: { name: string }) => (calls.push("patch status"), Promise.resolve(node({ metadata: { name } }))),
      },
      coordination: {
        readNamespacedLease: () => {
          calls.push("get lease");
          return stored ? Promise.resolve(stored) : Promise.reject(new ApiException(404, "not found", {}, {}));
        },
        createNamespacedLease: ({ body }: { body: V1Lease }) => (calls.push("create lease"), Promise.resolve(lease(body))),
        replaceNamespacedLease: ({ body }: { body: V1Lease }) => {
          calls.push("put lease");
          return failLease-- > 0 ? Promise.reject(new ApiException(500, "etcd is down", {}, {})) : Promise.resolve(lease(body));
        },
      },
    } as unknown as KeepNodeClients;
    return { clients, calls };
  }

  it("reports a failed renewal and retries it on the next tick, never throwing", async () => {
    const { clients, calls } = fakeClients(1);
    const stop = new AbortController();
    const logged: string[] = [];
    const logger = { error: (message: string) => logged.push(message) };
    const options = {
      name: "n",
      nodeIP: "10.0.0.1",
      resources: MEASURED,
      signal: stop.signal,
      logger,
      leaseRenewMs: 20,
      leaseDurationSeconds: 1,
    };
    const kept = await keepNode(clients, options);
    await vi.waitFor(() => expect(calls.filter((c) => c === "put lease").length).toBeGreaterThanOrEqual(2));
    stop.abort();
    await kept.stopped;
    expect(calls.slice(0, 6)).toEqual(["create node", "patch status", "get lease", "create lease", "put lease", "get lease"]);
    expect(calls.at(-1)).toBe("patch status"); // Ready=False at the stop
    expect(logged[0]).toMatch(/^keepNode n: renew the lease: HTTP-Code: 500/);
    expect(logged).toHaveLength(1);
  });

  it("refuses a name that cannot be a Node's, and an aborted signal, before any request", async () => {
    const { clients, calls } = fakeClients();
    const err = await keepNode(clients, {
      name: "..",
      nodeIP: "10.0.0.1",
      resources: MEASURED,
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    const aborted = AbortSignal.abort(new Error("stopped"));
    await expect(keepNode(clients, { name: "n", nodeIP: "10.0.0.1", resources: MEASURED, signal: aborted })).rejects.toThrow("stopped");
    expect(calls).toEqual([]);
  });
});
