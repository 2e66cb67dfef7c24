import type { CoreV1Api, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { Annotation, VMState, podStatusForVM } from "../../meta/index.js";
import { STATUS_SUCCESS, apiError, fakeApi, servedAs, type Responder } from "../fakes.test-util.js";
import { patchClearVMRuntime } from "./clear-vm-runtime.js";
import { PodDeletion, finishPodDeletion } from "./finish-pod-deletion.js";
import { sameOnWire } from "./same-on-wire.js";
import { writePodStatus } from "./write-pod-status.js";

/** The server's answers: the pod (uid `u-1`) to a patch, a `Status` to the delete. */
const served: Responder = (method, params) => (method === "deleteNamespacedPod" ? STATUS_SUCCESS : servedAs(params, "u-1"));
const core = (respond: Responder = served) => {
  const fake = fakeApi<CoreV1Api>(respond);
  return { clients: { core: fake.api }, calls: fake.calls };
};
const pod = (annotations: Record<string, string> = {}): V1Pod => ({
  metadata: { name: "demo-0", namespace: "prod", uid: "u-1", annotations },
  spec: { containers: [{ name: "agent", image: "x" }] },
});
const isArgumentError = (err: unknown) => isCocoonError(err) && err.code === "ERR_INVALID_ARGUMENT";

describe("patchClearVMRuntime", () => {
  it("sends Go's clear as one merge patch", async () => {
    const { clients, calls } = core();
    await patchClearVMRuntime(clients, pod({ [Annotation.VMID]: "vm-1", [Annotation.VNCPort]: "5900" }));
    expect(calls.map((c) => [c.method, c.params.name, c.params.namespace, c.contentType, c.wireBody])).toEqual([
      [
        "patchNamespacedPod",
        "demo-0",
        "prod",
        "application/merge-patch+json",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/id":null,"vm.cocoonstack.io/ip":null}}}',
      ],
    ]);
  });

  it("sends nothing when neither key is there", async () => {
    const { clients, calls } = core();
    const clear = pod({ [Annotation.VNCPort]: "5900" });
    expect(await patchClearVMRuntime(clients, clear)).toBe(clear);
    expect(calls).toEqual([]);
  });

  it("takes Pods only", async () => {
    const { clients, calls } = core();
    const set = { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonSet", metadata: { name: "s", namespace: "n" } };
    await expect(patchClearVMRuntime(clients, set)).rejects.toSatisfy(isArgumentError);
    expect(calls).toEqual([]);
  });
});

describe("finishPodDeletion", () => {
  it("deletes with grace 0 and the uid precondition in the body, no query parameter", async () => {
    const { clients, calls } = core();
    expect(await finishPodDeletion(clients, pod())).toBe(PodDeletion.Deleted);
    expect(calls.map((c) => [c.method, c.params, c.wireBody])).toEqual([
      [
        "deleteNamespacedPod",
        { name: "demo-0", namespace: "prod", body: { gracePeriodSeconds: 0, preconditions: { uid: "u-1" } } },
        '{"gracePeriodSeconds":0,"preconditions":{"uid":"u-1"}}',
      ],
    ]);
  });

  it.each([
    [404, "NotFound", PodDeletion.AlreadyGone],
    [409, "Conflict", PodDeletion.UIDMismatch],
  ])("answers %i %s as %s", async (code, reason, outcome) => {
    const { clients } = core(() => {
      throw apiError(code, reason);
    });
    expect(await finishPodDeletion(clients, pod())).toBe(outcome);
  });

  it("passes any other failure through", async () => {
    const { clients } = core(() => {
      throw apiError(403, "Forbidden");
    });
    await expect(finishPodDeletion(clients, pod())).rejects.toMatchObject({ code: 403 });
  });

  it("refuses a pod without uid before sending anything: a delete by name could hit a newer pod", async () => {
    const { clients, calls } = core();
    const nameOnly = { metadata: { name: "demo-0", namespace: "prod" } };
    await expect(finishPodDeletion(clients, nameOnly)).rejects.toThrow("finishPodDeletion needs the uid of pod prod/demo-0");
    expect(calls).toEqual([]);
  });
});

describe("writePodStatus", () => {
  const NOW = new Date("2026-08-12T10:00:00Z");

  it("sends the fields that differ, with null for those the status leaves out", async () => {
    const { clients, calls } = core();
    const live: V1Pod = {
      ...pod(),
      status: {
        phase: "Running",
        podIP: "10.88.0.7",
        podIPs: [{ ip: "10.88.0.7" }],
        hostIP: "192.168.1.2",
        startTime: NOW,
        conditions: [{ type: "Ready", status: "True", lastTransitionTime: NOW }],
        containerStatuses: [
          { name: "agent", ready: true, restartCount: 0, image: "", imageID: "", state: { running: { startedAt: NOW } } },
        ],
      },
    };
    await writePodStatus(clients, live, podStatusForVM(live, { state: VMState.Absent }, { now: new Date("2026-08-12T11:00:00Z") }));
    expect(calls.map((c) => [c.method, c.contentType, c.wireBody])).toEqual([
      [
        "patchNamespacedPodStatus",
        "application/merge-patch+json",
        '{"status":{"phase":"Pending","conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2026-08-12T11:00:00Z"},' +
          '{"type":"ContainersReady","status":"False","lastTransitionTime":"2026-08-12T11:00:00Z"}],"podIP":null,"podIPs":null,"containerStatuses":null}}',
      ],
    ]);
  });

  it("sends nothing when the server already holds the status (Dates, zero values and all)", async () => {
    const { clients, calls } = core();
    const live: V1Pod = {
      ...pod({ [Annotation.LifecycleState]: "ready" }),
      status: {
        phase: "Running",
        podIP: "10.88.0.7",
        podIPs: [{ ip: "10.88.0.7" }],
        qosClass: "BestEffort",
        startTime: NOW,
        conditions: [
          { type: "Ready", status: "True", lastTransitionTime: NOW },
          { type: "ContainersReady", status: "True", lastTransitionTime: NOW },
          { type: "Initialized", status: "True", lastTransitionTime: NOW },
        ],
        containerStatuses: [
          { name: "agent", ready: true, restartCount: 0, image: "", imageID: "", lastState: {}, state: { running: { startedAt: NOW } } },
        ],
      },
    };
    const status = podStatusForVM(live, { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, { now: new Date() });
    expect(await writePodStatus(clients, live, status)).toBe(live);
    expect(calls).toEqual([]);
  });

  it("takes Pods only", async () => {
    const { clients } = core();
    const set = { kind: "CocoonSet", metadata: { name: "s", namespace: "n" } };
    await expect(writePodStatus(clients, set, { phase: "Pending", conditions: [] })).rejects.toSatisfy(isArgumentError);
  });
});

describe("sameOnWire", () => {
  it.each([
    [new Date("2026-08-12T10:00:00.999Z"), "2026-08-12T10:00:00Z", true],
    [{ a: "", b: 0, c: false, d: null, e: [], f: {} }, undefined, true],
    [{ b: 1, a: 2 }, { a: 2, b: 1 }, true],
    [[{ x: 1 }, {}], [{ x: 1 }, null], true],
    [[1, 2], [2, 1], false],
    ["True", "False", false],
  ])("%j ≡ %j: %s", (a, b, same) => {
    expect(sameOnWire(a, b)).toBe(same);
  });
});
