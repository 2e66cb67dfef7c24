/**
 * Rule 5 of issue 33: what a virtual kubelet builds from a watched pod never throws. Any JSON the watch's
 * check accepts as a {@link WatchedPod} is handed to every helper that takes a pod; each answers,
 * or refuses with a typed `CocoonError`, never a `TypeError` or a `RangeError`.
 *
 * The pods are a real operator pod (`buildMainPod`, through Go's JSON) with a status, with one to
 * three hostile JSON values planted at any of its paths or one below: wrong types, arrays where
 * objects go, `__proto__` and `constructor` keys, huge strings, numbers past 2^53. They go through
 * `JSON.stringify` and `JSON.parse`, as a watch event's object does, and only those the watch's
 * check accepts are kept.
 *
 * @module
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError, type CocoonErrorCode } from "../../src/errors.js";
import {
  finishPodDeletion,
  patchHibernateState,
  patchLifecycleStatus,
  releaseSeat,
  reportVM,
  writePodStatus,
} from "../../src/k8s/index.js";
import { sameOnWire } from "../../src/k8s/kubelet/same-on-wire.js";
import { resolvePodTarget, resolveTarget } from "../../src/k8s/patch/target.js";
import { acceptWatchedPod } from "../../src/k8s/watch/watched-pod-check.generated.js";
import type { WatchedPod } from "../../src/k8s/watch/watched-pod.js";
import * as meta from "../../src/meta/index.js";
import { startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { json } from "./support/peer.js";

const RUNS = 400;

/** The codes a helper may refuse a watched pod with. */
const KNOWN_CODES: readonly CocoonErrorCode[] = [
  "ERR_INVALID_ARGUMENT",
  "ERR_INVALID_INTEGER",
  "ERR_INVALID_QUANTITY",
  "ERR_UNEXPECTED_OBJECT",
];

const SET = {
  metadata: { name: "demo", namespace: "ns", uid: "u-1", generation: 3 },
  spec: {
    nodeName: "node-k",
    agent: {
      image: "img",
      storage: "10Gi",
      resources: { requests: { cpu: "1" }, limits: { cpu: "2" } },
      envFrom: [{ secretRef: { name: "s" } }],
    },
    toolboxes: [{ name: "db", image: "pg", storage: "5Gi", resources: { limits: { memory: "1Gi" } } }],
  },
} satisfies meta.CocoonSetLike;
const TOOLBOX = SET.spec.toolboxes[0] as meta.ToolboxLike;

/** A pod as a watch delivers it: the operator's main pod, scheduled, running, with a status. */
function basePod(): Record<string, unknown> {
  type Json = Record<string, unknown>;
  const pod = JSON.parse(meta.marshalPodGoJSON(meta.buildMainPod(SET))) as {
    metadata: Json & { annotations: Record<string, string> };
    spec: Json;
  } & Json;
  Object.assign(pod.metadata, { uid: "pod-uid", resourceVersion: "42", creationTimestamp: "2026-12-01T00:00:00Z" });
  Object.assign(pod.metadata.annotations, {
    [meta.Annotation.VMID]: "vm-1",
    [meta.Annotation.IP]: "10.88.0.7",
    [meta.Annotation.VNCPort]: "5901",
  });
  pod.spec["nodeName"] = "cocoon-a";
  pod["status"] = {
    phase: "Running",
    podIP: "10.88.0.7",
    podIPs: [{ ip: "10.88.0.7" }],
    startTime: "2026-12-01T00:00:01Z",
    conditions: [
      { type: "PodScheduled", status: "True", lastTransitionTime: "2026-12-01T00:00:00Z" },
      { type: "Ready", status: "True", reason: "", message: "", lastProbeTime: null, lastTransitionTime: "2026-12-01T00:00:02Z" },
    ],
    containerStatuses: [
      {
        name: "agent",
        ready: true,
        state: {
          running: { startedAt: "2026-12-01T00:00:02Z" },
          terminated: { startedAt: "2026-12-01T00:00:00Z", finishedAt: "2026-12-01T00:00:01Z" },
        },
      },
    ],
  };
  meta.applyLifecycleStatus(pod, { state: meta.LifecycleState.Ready, observedGeneration: 3, message: "up" });
  return pod;
}

/** Every path of a JSON value, parents first. */
function paths(value: unknown, at: readonly string[] = []): string[][] {
  if (typeof value !== "object" || value === null) return [[...at]];
  const children = Object.entries(value).flatMap(([key, child]) => paths(child, [...at, key]));
  return [[...at], ...children];
}
const PATHS = paths(basePod()).filter((p) => p.length > 0);

/** Hostile JSON values: what a malicious API server can put anywhere in an object. */
const hostileJSON: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    0,
    -1,
    1.5,
    2 ** 53 + 2,
    1e308,
    -1e308,
    true,
    false,
    "",
    "true",
    "-1",
    "9223372036854775808",
    "1e3",
    "NaN",
    "Infinity",
    "-0",
    "::",
    "999999999999999999999Gi",
    "x".repeat(1 << 20),
    `${"a.".repeat(100_000)}!`,
    [],
    [null],
    [[]],
    [{}],
    {},
    { running: [] },
    { startedAt: 7 },
    { ip: 7 },
    { requests: [] },
    { limits: { cpu: [] } },
    { requests: { cpu: 2 ** 53 + 2 } },
    { requests: { "ephemeral-storage": "1e400" } },
    { secretRef: 7 },
    { configMapRef: [] },
  ),
  fc
    .constantFrom("__proto__", "constructor", "toString", "valueOf", "hasOwnProperty")
    .map((key) => JSON.parse(`{"${key}":{"x":1}}`) as unknown),
  fc.jsonValue({ maxDepth: 2 }),
);

/** One planting: a path of the pod (optionally one key further down) and the value put there. */
const planting = fc.record({
  at: fc.constantFrom(...PATHS),
  below: fc.option(fc.constantFrom("__proto__", "constructor", "0", "1", "x", "running", "startedAt", "ip", "name", "requests"), {
    nil: undefined,
  }),
  value: hostileJSON,
});

/** The base pod with the plantings, through JSON text, as a watch event's object arrives. */
function plant(plantings: readonly { at: readonly string[]; below: string | undefined; value: unknown }[]): unknown {
  const pod = basePod();
  for (const { at, below, value } of plantings) {
    const path = below === undefined ? at : [...at, below];
    let parent: unknown = pod;
    for (const key of path.slice(0, -1)) {
      const next = (parent as Record<string, unknown>)[key];
      if (typeof next !== "object" || next === null) {
        parent = undefined;
        break;
      }
      parent = next;
    }
    if (typeof parent !== "object" || parent === null) continue;
    // A copy: fast-check reuses constant values, and one planted inside itself would be a cycle.
    const copy: unknown = JSON.parse(JSON.stringify(value));
    // defineProperty, not assignment: a "__proto__" key is an own key in JSON, never the prototype.
    Object.defineProperty(parent, path[path.length - 1] ?? "", { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return JSON.parse(JSON.stringify(pod)) as unknown;
}

/** Pods the watch's check accepts, each a fresh object. */
const watchedPods: fc.Arbitrary<WatchedPod> = fc
  .array(planting, { minLength: 1, maxLength: 3 })
  .map((plantings) => acceptWatchedPod(plant(plantings)))
  .filter((pod): pod is WatchedPod => pod !== undefined);

const NOW = new Date("2026-12-04T00:00:00Z");
const OBSERVATIONS: readonly meta.VMObservation[] = [
  { state: meta.VMState.Running, ip: "10.88.0.9", probeReady: true },
  { state: meta.VMState.Running, probeReady: false },
  { state: meta.VMState.Absent },
  { state: meta.VMState.Deleted },
];

/** Every helper that takes a watched pod, called the way a virtual kubelet or operator calls it. */
const HELPERS: Record<string, (pod: WatchedPod) => unknown> = {
  readHibernateState: (pod) => meta.readHibernateState(pod),
  readRestoreFromHibernate: (pod) => meta.readRestoreFromHibernate(pod),
  readKeepSnapshotOnDelete: (pod) => meta.readKeepSnapshotOnDelete(pod),
  readLifecycleStatus: (pod) => meta.readLifecycleStatus(pod),
  readLifecycleState: (pod) => meta.readLifecycleState(pod),
  readLifecycleObservedGeneration: (pod) => meta.readLifecycleObservedGeneration(pod),
  readCocoonSetGeneration: (pod) => meta.readCocoonSetGeneration(pod),
  readHibernatedOnNode: (pod) => meta.readHibernatedOnNode(pod),
  parseVMSpec: (pod) => meta.parseVMSpec(pod),
  parseVMRuntime: (pod) => meta.parseVMRuntime(pod),
  isPodReady: (pod) => meta.isPodReady(pod),
  isPodTerminal: (pod) => meta.isPodTerminal(pod),
  isContainerRunning: (pod) => meta.isContainerRunning(pod),
  podNodePool: (pod) => meta.podNodePool(pod),
  hasCocoonTolerationKey: (pod) => meta.hasCocoonTolerationKey(pod.spec.tolerations),
  cocoonSetOwnerName: (pod) => meta.cocoonSetOwnerName(pod.metadata.ownerReferences),
  isOwnedByCocoonSet: (pod) => meta.isOwnedByCocoonSet(pod.metadata.ownerReferences),
  roleForPod: (pod) => meta.roleForPod(pod, meta.parseVMSpec(pod).vmName),
  vmNameForPod: (pod) => meta.vmNameForPod(pod.metadata.namespace, pod.metadata.name),
  podKey: (pod) => meta.podKey(pod.metadata.namespace, pod.metadata.name),
  shouldSnapshotVM: (pod) => meta.shouldSnapshotVM(meta.parseVMSpec(pod), meta.roleForPod(pod, meta.parseVMSpec(pod).vmName)),
  connectionType: (pod) => {
    const spec = meta.parseVMSpec(pod);
    return meta.connectionType(spec.os, meta.parseVMRuntime(pod).vncPort > 0, spec.connType);
  },
  annotationsSatisfied: (pod) => meta.annotationsSatisfied(pod, meta.hibernateStateAnnotations(true)),
  applyAnnotations: (pod) =>
    meta.applyAnnotations(pod, meta.lifecycleStatusAnnotations({ state: "Ready", observedGeneration: 3, message: "" })),
  clearVMRuntime: (pod) => meta.clearVMRuntime(pod),
  podStatusForVM: (pod) => OBSERVATIONS.map((vm) => meta.podStatusForVM(pod, vm, { now: NOW })),
  // An operator compares the pods its watch delivers: their containers' resources and envFrom are unchecked JSON.
  podSpecMatchesAgent: (pod) => meta.podSpecMatchesAgent(pod as meta.LivePodLike, SET, 0),
  podSpecMatchesToolbox: (pod) => meta.podSpecMatchesToolbox(pod as meta.LivePodLike, SET, TOOLBOX),
  decideKubeletAction: (pod) =>
    [true, false].flatMap((exists) => [meta.decideKubeletAction(pod, { exists, keptSnapshot: !exists, hibernateSnapshot: "missing" })]),
  "LastWrites (record, isStale)": (pod) => {
    const writes = new meta.LastWrites();
    writes.record(pod);
    return writes.isStale(pod);
  },
  resolveTarget: (pod) => resolveTarget(pod, "patch"),
  resolvePodTarget: (pod) => resolvePodTarget(pod, "writePodStatus"),
  "sameOnWire (writePodStatus's compare)": (pod) =>
    OBSERVATIONS.map((vm) => {
      const status = meta.podStatusForVM(pod, vm, { now: NOW }) as unknown as Record<string, unknown>;
      const current = (pod.status ?? {}) as Record<string, unknown>;
      return ["phase", "conditions", "podIP", "podIPs", "startTime", "containerStatuses"].map((f) => sameOnWire(current[f], status[f]));
    }),
};

/** The helpers of `./k8s` that take a watched pod and send what they build from it to the API server. */
const WRITERS: Record<string, (api: HostileAPIServer, pod: WatchedPod) => Promise<unknown>> = {
  writePodStatus: (api, pod) =>
    writePodStatus(
      api.clients,
      pod,
      meta.podStatusForVM(pod, { state: meta.VMState.Running, ip: "10.88.0.9", probeReady: true }, { now: NOW }),
    ),
  patchHibernateState: (api, pod) => patchHibernateState(api.clients, pod, !meta.readHibernateState(pod)),
  releaseSeat: (api, pod) => releaseSeat(api.clients, pod),
  patchLifecycleStatus: (api, pod) => patchLifecycleStatus(api.clients, pod, meta.readLifecycleStatus(pod)),
  reportVM: (api, pod) =>
    reportVM(api.clients, pod, {
      state: meta.LifecycleState.Ready,
      vm: { state: meta.VMState.Running, ip: "10.88.0.9", probeReady: true },
    }),
  finishPodDeletion: (api, pod) => finishPodDeletion(api.clients, pod),
};

/** What a refusal says: a known CocoonError code, or the foreign error. */
function refusal(err: unknown): string {
  if (isCocoonError(err) && KNOWN_CODES.includes(err.code)) return err.code;
  return `threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
}

/** What a helper did with one pod: `"answered"`, a known CocoonError code, or the foreign error. */
function outcome(helper: (pod: WatchedPod) => unknown, pod: WatchedPod): string {
  try {
    helper(pod);
    return "answered";
  } catch (err) {
    return refusal(err);
  }
}

describe("every helper is total on a pod the watch accepts (issue 33, rule 5)", () => {
  it("the base pod is accepted and every helper answers on it", () => {
    const pod = acceptWatchedPod(JSON.parse(JSON.stringify(basePod())));
    expect(pod).toBeDefined();
    for (const [name, helper] of Object.entries(HELPERS)) expect([name, outcome(helper, pod as WatchedPod)]).toEqual([name, "answered"]);
  });

  it("every helper answers or refuses with a CocoonError when any one path holds a wrong type", () => {
    const WRONG: readonly unknown[] = [7, 2 ** 53 + 2, "x", "", true, null, [], [7], {}, { "": 7 }];
    const failures: string[] = [];
    for (const at of PATHS) {
      for (const value of WRONG) {
        const pod = acceptWatchedPod(plant([{ at, below: undefined, value }]));
        if (pod === undefined) continue;
        for (const [name, helper] of Object.entries(HELPERS)) {
          const result = outcome(helper, structuredClone(pod));
          if (!/^(answered|ERR_[A-Z_]+)$/.test(result)) failures.push(`${name} with ${at.join(".")} = ${JSON.stringify(value)}: ${result}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(Object.entries(HELPERS))("%s answers or refuses with a CocoonError", (_name, helper) => {
    fc.assert(
      fc.property(watchedPods, (pod) => {
        expect(outcome(helper, pod)).toMatch(/^(answered|ERR_[A-Z_]+)$/);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("every ./k8s writer is total on a pod the watch accepts (issue 33, rule 5)", () => {
  let api: HostileAPIServer;
  beforeAll(async () => {
    api = await startAPIServer();
  });
  afterAll(() => api.close());

  it.each(Object.entries(WRITERS))("%s answers or refuses with a CocoonError, against a real API server", async (_name, writer) => {
    await fc.assert(
      fc.asyncProperty(watchedPods, async (pod) => {
        // The server answers with a well-formed pod of the same identity: what it answers is rule 2's
        // concern (a pod client-node cannot deserialize is refused there), the pod given is this rule's.
        const answer = acceptWatchedPod(JSON.parse(JSON.stringify(basePod())));
        Object.assign(answer?.metadata ?? {}, {
          name: pod.metadata.name,
          namespace: pod.metadata.namespace,
          uid: pod.metadata.uid,
          resourceVersion: pod.metadata.resourceVersion,
        });
        api.handle((_req, res) => json(res, 200, answer));
        const result = await writer(api, pod).then(
          () => "answered",
          (err: unknown) => refusal(err),
        );
        expect(result).toMatch(/^(answered|ERR_[A-Z_]+)$/);
      }),
      { numRuns: 60 },
    );
  });
});
