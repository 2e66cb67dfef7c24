import type { CoreV1Api, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { Annotation, LifecycleState, VMState } from "../../meta/index.js";
import { apiError, fakeApi } from "../fakes.test-util.js";
import { patchLifecycleStatus } from "./lifecycle-status.js";
import { reportVM } from "./report-vm.js";

type Json = Record<string, unknown>;

/** RFC 7386 merge patch, as the API server applies a merge patch. */
function merge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const out: Json = typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [key, value] of Object.entries(patch as Json)) {
    if (value === null) Reflect.deleteProperty(out, key);
    else out[key] = merge(out[key], value);
  }
  return out;
}

/** A fake API server holding one pod: each patch is applied to it and answered with the result. */
function server(initial: V1Pod, failOn?: string) {
  let stored: Json = structuredClone(initial) as Json;
  const fake = fakeApi<CoreV1Api>((method) => {
    if (method === failOn) throw apiError(500, "InternalError");
    const body = fake.calls.at(-1)?.wireBody ?? "{}";
    stored = merge(stored, JSON.parse(body)) as Json;
    return structuredClone(stored);
  });
  return { clients: { core: fake.api }, calls: fake.calls };
}

const pod = (annotations: Record<string, string> = {}): V1Pod => ({
  kind: "Pod",
  apiVersion: "v1",
  metadata: { name: "demo-0", namespace: "prod", uid: "u-1", annotations: { [Annotation.CocoonSetGeneration]: "3", ...annotations } },
  spec: { containers: [{ name: "agent", image: "x" }] },
});
const NOW = new Date("2026-08-12T10:00:00Z");
const running = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
const wire = (calls: { method: string; wireBody: string | undefined }[]) => calls.map((c) => [c.method, c.wireBody]);

describe("reportVM", () => {
  it("writes the runtime, then the pod status, then the lifecycle; the same report again sends nothing", async () => {
    const { clients, calls } = server(pod({ [Annotation.LifecycleState]: LifecycleState.Creating }));
    const report = { state: LifecycleState.Ready, vm: running, runtime: { vmID: "vm-1", ip: "10.88.0.7" } };
    const first = await reportVM(clients, pod({ [Annotation.LifecycleState]: LifecycleState.Creating }), report, { now: NOW });
    expect(first.sent).toEqual(["runtime", "status", "lifecycle"]);
    expect(wire(calls)).toEqual([
      ["patchNamespacedPod", '{"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":"10.88.0.7"}}}'],
      [
        "patchNamespacedPodStatus",
        '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-08-12T10:00:00Z"},' +
          '{"type":"ContainersReady","status":"True","lastTransitionTime":"2026-08-12T10:00:00Z"},' +
          '{"type":"Initialized","status":"True","lastTransitionTime":"2026-08-12T10:00:00Z"}],' +
          '"podIP":"10.88.0.7","podIPs":[{"ip":"10.88.0.7"}],"startTime":"2026-08-12T10:00:00Z",' +
          '"containerStatuses":[{"name":"agent","state":{"running":{"startedAt":"2026-08-12T10:00:00Z"}},"ready":true}]}}',
      ],
      [
        "patchNamespacedPod",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"3","vm.cocoonstack.io/lifecycle-state":"ready","vm.cocoonstack.io/lifecycle-state-message":null}}}',
      ],
    ]);
    calls.length = 0;
    const again = await reportVM(clients, first.pod, report, { now: new Date("2026-08-12T11:00:00Z") });
    expect(again).toEqual({ pod: first.pod, sent: [] });
    expect(calls).toEqual([]);
  });

  it("sends one request when only one part changed", async () => {
    const { clients, calls } = server(pod());
    const { pod: hibernating } = await reportVM(
      clients,
      pod(),
      { state: LifecycleState.Hibernating, vm: { state: VMState.Absent } },
      { now: NOW },
    );
    calls.length = 0;
    const { sent } = await reportVM(
      clients,
      hibernating,
      { state: LifecycleState.Hibernated, vm: { state: VMState.Absent } },
      { now: NOW },
    );
    expect(sent).toEqual(["lifecycle"]);
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPod"]);
  });

  it("clears the runtime for runtime: null", async () => {
    const live = pod({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7" });
    const { clients, calls } = server(live);
    const { sent } = await reportVM(
      clients,
      live,
      { state: LifecycleState.Hibernated, vm: { state: VMState.Absent }, runtime: null },
      { now: NOW },
    );
    expect(sent).toEqual(["runtime", "status", "lifecycle"]);
    expect(calls[0]?.wireBody).toBe('{"metadata":{"annotations":{"vm.cocoonstack.io/id":null,"vm.cocoonstack.io/ip":null}}}');
  });

  it("writes the message of a failed state", async () => {
    const { clients, calls } = server(pod());
    await reportVM(clients, pod(), { state: LifecycleState.Failed, vm: { state: VMState.Absent }, message: "pull failed" }, { now: NOW });
    expect(calls.at(-1)?.wireBody).toBe(
      '{"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"3","vm.cocoonstack.io/lifecycle-state":"failed","vm.cocoonstack.io/lifecycle-state-message":"pull failed"}}}',
    );
  });

  it("sends nothing after a refused status write: the lifecycle never runs ahead of the status", async () => {
    const { clients, calls } = server(pod(), "patchNamespacedPodStatus");
    await expect(reportVM(clients, pod(), { state: LifecycleState.Hibernated, vm: { state: VMState.Absent } })).rejects.toMatchObject({
      code: 500,
    });
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPodStatus"]);
  });

  it("refuses an object that is not a pod before any request, naming itself", async () => {
    const { clients, calls } = server(pod());
    const set = { kind: "CocoonSet", apiVersion: "cocoonset.cocoonstack.io/v1", metadata: { name: "s", namespace: "n" } };
    const err: unknown = await reportVM(clients, set, { state: LifecycleState.Ready, vm: running }).catch((e: unknown) => e);
    expect(isCocoonError(err) && [err.code, err.message]).toEqual(["ERR_INVALID_ARGUMENT", "reportVM takes a Pod, got CocoonSet n/s"]);
    expect(calls).toEqual([]);
  });
});

describe("patchLifecycleStatus", () => {
  it("sends the three keys in one merge patch, or nothing when the pod holds them", async () => {
    const { clients, calls } = server(pod());
    const status = { state: LifecycleState.Hibernated, observedGeneration: 3, message: "" };
    const written = await patchLifecycleStatus(clients, pod(), status);
    expect(wire(calls)).toEqual([
      [
        "patchNamespacedPod",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"3","vm.cocoonstack.io/lifecycle-state":"hibernated","vm.cocoonstack.io/lifecycle-state-message":null}}}',
      ],
    ]);
    expect(await patchLifecycleStatus(clients, written, status)).toBe(written);
    expect(calls.length).toBe(1);
  });

  it("sends all three keys when only the generation moved", async () => {
    const live = pod({ [Annotation.LifecycleState]: "ready", [Annotation.LifecycleObservedGeneration]: "2" });
    const { clients, calls } = server(live);
    await patchLifecycleStatus(clients, live, { state: LifecycleState.Ready, observedGeneration: 3, message: "" });
    expect(calls.map((c) => c.wireBody)).toEqual([
      '{"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"3","vm.cocoonstack.io/lifecycle-state":"ready","vm.cocoonstack.io/lifecycle-state-message":null}}}',
    ]);
  });

  it.each([
    ["a null status", null, "patchLifecycleStatus: status must be an object, got null"],
    [
      "a numeric state",
      { state: 1, observedGeneration: 0, message: "" },
      "patchLifecycleStatus: status.state must be a string, got number",
    ],
    [
      "a missing message",
      { state: "ready", observedGeneration: 0 },
      "patchLifecycleStatus: status.message must be a string, got undefined",
    ],
  ])("refuses %s before any request", async (_what, status, message) => {
    const { clients, calls } = server(pod());
    const err: unknown = await patchLifecycleStatus(clients, pod(), status as never).catch((e: unknown) => e);
    expect(isCocoonError(err) && [err.code, err.message]).toEqual(["ERR_INVALID_ARGUMENT", message]);
    expect(calls).toEqual([]);
  });

  it("refuses a generation that is not a Go int64", async () => {
    const { clients, calls } = server(pod());
    const err: unknown = await patchLifecycleStatus(clients, pod(), { state: "ready", observedGeneration: 1.5, message: "" }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err) && err.code).toBe("ERR_INVALID_INTEGER");
    expect(calls).toEqual([]);
  });
});
