import { describe, expect, it } from "vitest";
import { Annotation } from "../keys.js";
import { LifecycleState } from "../lifecycle.js";
import { VMState, podStatusForVM } from "./pod-status.js";
import type { PodStatusSource } from "./pod-status-types.js";

const T0 = "2026-08-12T10:00:00Z";
const NOW = new Date("2026-08-12T10:05:07.891Z");
const NOW_TEXT = "2026-08-12T10:05:07Z";
const readyPod = (status?: PodStatusSource["status"]): PodStatusSource => ({
  metadata: { annotations: { [Annotation.LifecycleState]: LifecycleState.Ready } },
  spec: { containers: [{ name: "agent" }] },
  ...(status ? { status } : {}),
});
const running = (probeReady: boolean, ip = "10.88.0.7") => ({ state: VMState.Running, ip, probeReady }) as const;

/** A status as the API server holds it for a running, ready VM (times as client-node's Dates). */
const servedRunning = (): NonNullable<PodStatusSource["status"]> => ({
  conditions: [
    { type: "PodScheduled", status: "True", lastTransitionTime: new Date(T0) },
    { type: "Ready", status: "True", lastTransitionTime: new Date(T0) },
    { type: "ContainersReady", status: "True", lastTransitionTime: new Date(T0) },
    { type: "Initialized", status: "True", lastTransitionTime: new Date(T0) },
  ],
  podIP: "10.88.0.7",
  podIPs: [{ ip: "10.88.0.7" }],
  startTime: new Date(T0),
  containerStatuses: [{ name: "agent", state: { running: { startedAt: new Date(T0) } } }],
});

describe("podStatusForVM", () => {
  it("a running VM of a fresh pod: Running, its IP, ready conditions and container, all stamped now", () => {
    expect(podStatusForVM(readyPod(), running(true), { now: NOW })).toEqual({
      phase: "Running",
      conditions: [
        { type: "Ready", status: "True", lastTransitionTime: NOW_TEXT },
        { type: "ContainersReady", status: "True", lastTransitionTime: NOW_TEXT },
        { type: "Initialized", status: "True", lastTransitionTime: NOW_TEXT },
      ],
      podIP: "10.88.0.7",
      podIPs: [{ ip: "10.88.0.7" }],
      startTime: NOW_TEXT,
      containerStatuses: [{ name: "agent", state: { running: { startedAt: NOW_TEXT } }, ready: true }],
    });
  });

  it.each([
    ["probe not ready", { annotations: { [Annotation.LifecycleState]: LifecycleState.Ready } }, false, undefined, "False"],
    [
      "lifecycle not Ready yet (vk-cocoon's gate)",
      { annotations: { [Annotation.LifecycleState]: LifecycleState.Creating } },
      true,
      undefined,
      "False",
    ],
    [
      "lifecycle not Ready, publishing ready",
      { annotations: { [Annotation.LifecycleState]: LifecycleState.Creating } },
      true,
      true,
      "True",
    ],
    ["no annotations at all", undefined, true, undefined, "False"],
  ])("Ready follows the probe and the lifecycle: %s", (_name, metadata, probeReady, publishingReady, expected) => {
    const pod: PodStatusSource = metadata === undefined ? {} : { metadata };
    const status = podStatusForVM(pod, running(probeReady), { now: NOW, publishingReady });
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([
      ["Ready", expected],
      ["ContainersReady", expected],
      ["Initialized", "True"],
    ]);
    expect(status.containerStatuses?.[0]?.ready).toBe(expected === "True");
  });

  it("keeps every time while nothing changes, other conditions included, in their order", () => {
    const status = podStatusForVM(readyPod(servedRunning()), running(true), { now: NOW });
    expect(status).toEqual({
      phase: "Running",
      conditions: [
        { type: "PodScheduled", status: "True", lastTransitionTime: T0 },
        { type: "Ready", status: "True", lastTransitionTime: T0 },
        { type: "ContainersReady", status: "True", lastTransitionTime: T0 },
        { type: "Initialized", status: "True", lastTransitionTime: T0 },
      ],
      podIP: "10.88.0.7",
      podIPs: [{ ip: "10.88.0.7" }],
      startTime: T0,
      containerStatuses: [{ name: "agent", state: { running: { startedAt: T0 } }, ready: true }],
    });
  });

  it("stamps now on the conditions whose status changes, and only there", () => {
    const status = podStatusForVM(readyPod(servedRunning()), running(false), { now: NOW });
    expect(status.conditions).toEqual([
      { type: "PodScheduled", status: "True", lastTransitionTime: T0 },
      { type: "Ready", status: "False", lastTransitionTime: NOW_TEXT },
      { type: "ContainersReady", status: "False", lastTransitionTime: NOW_TEXT },
      { type: "Initialized", status: "True", lastTransitionTime: T0 },
    ]);
    expect(status.containerStatuses).toEqual([{ name: "agent", state: { running: { startedAt: T0 } }, ready: false }]);
  });

  it("an absent VM (hibernated): Pending, no IP, no container, not ready; start time and other conditions kept", () => {
    expect(podStatusForVM(readyPod(servedRunning()), { state: VMState.Absent }, { now: NOW })).toEqual({
      phase: "Pending",
      conditions: [
        { type: "PodScheduled", status: "True", lastTransitionTime: T0 },
        { type: "Ready", status: "False", lastTransitionTime: NOW_TEXT },
        { type: "ContainersReady", status: "False", lastTransitionTime: NOW_TEXT },
        { type: "Initialized", status: "True", lastTransitionTime: T0 },
      ],
      startTime: T0,
    });
  });

  it("an absent VM of a fresh pod has no start time", () => {
    expect(podStatusForVM({}, { state: VMState.Absent }, { now: NOW })).toEqual({
      phase: "Pending",
      conditions: [
        { type: "Ready", status: "False", lastTransitionTime: NOW_TEXT },
        { type: "ContainersReady", status: "False", lastTransitionTime: NOW_TEXT },
      ],
    });
  });

  it("a deleted VM: Succeeded, not ready (PodCompleted), the container terminated with code 0", () => {
    expect(podStatusForVM(readyPod(servedRunning()), { state: VMState.Deleted }, { now: NOW })).toEqual({
      phase: "Succeeded",
      conditions: [
        { type: "PodScheduled", status: "True", lastTransitionTime: T0 },
        { type: "Ready", status: "False", lastTransitionTime: NOW_TEXT, reason: "PodCompleted" },
        { type: "ContainersReady", status: "False", lastTransitionTime: NOW_TEXT, reason: "PodCompleted" },
        { type: "Initialized", status: "True", lastTransitionTime: T0 },
      ],
      podIP: "10.88.0.7",
      podIPs: [{ ip: "10.88.0.7" }],
      startTime: T0,
      containerStatuses: [
        { name: "agent", state: { terminated: { exitCode: 0, reason: "Completed", startedAt: T0, finishedAt: NOW_TEXT } }, ready: false },
      ],
    });
  });

  it("a running VM without an IP yet has no podIP", () => {
    const status = podStatusForVM(readyPod(), running(false, ""), { now: NOW });
    expect(status).not.toHaveProperty("podIP");
    expect(status).not.toHaveProperty("podIPs");
  });

  it("names the container after the pod's first, `agent` without one", () => {
    const named = podStatusForVM({ spec: { containers: [{ name: "vm" }] } }, running(true), { now: NOW });
    expect(named.containerStatuses?.[0]?.name).toBe("vm");
    expect(podStatusForVM({}, running(true), { now: NOW }).containerStatuses?.[0]?.name).toBe("agent");
  });

  it("reads the pod without changing it", () => {
    const pod = readyPod(servedRunning());
    const before = structuredClone(pod);
    Object.freeze(pod.status?.conditions);
    podStatusForVM(pod, { state: VMState.Deleted }, { now: NOW });
    expect(pod).toEqual(before);
  });
});
