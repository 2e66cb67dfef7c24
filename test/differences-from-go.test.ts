// One test per section of docs/differences-from-go.md: each deliberate difference from Go, as the
// page states it. (The real-server proof of the annotation section is in
// test/integration/k8s-patch-zero-values.test.ts.)
import type { CoreV1Api, CustomObjectsApi, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../src/errors.js";
import { fakeApi, servedAs } from "../src/k8s/fakes.test-util.js";
import { patch, patchAnnotations, patchStatus, reportVM, writePodStatus } from "../src/k8s/index.js";
import { readGoJSON } from "../src/internal/go-vectors.test-util.js";
import {
  annotationsMergePatch,
  annotationsMergePatchJSON,
  Annotation,
  buildMainPod,
  buildVirtualNode,
  decideKubeletAction,
  LifecycleState,
  podStatusForVM,
  VMState,
  buildSubAgentPod,
  buildToolboxPod,
  preferredHostnameAffinity,
  requiredHostnameAffinity,
  type CocoonSetLike,
} from "../src/meta/index.js";
import { referenceErrorOf } from "../src/oci/internal/reference-error.test-util.js";
import { isRelativeRef, parseReference, parseRef } from "../src/oci/index.js";
import { isExportFormatError } from "../src/snapshot/export/export-format-error.js";
import { MemoryRegistry } from "../src/snapshot/fakes.test-util.js";
import { pieces, tarEntry, TRAILER } from "../src/snapshot/hostile-artifact.test-util.js";
import { pushSnapshot } from "../src/snapshot/push/push.js";

const set = () => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "ns", resourceVersion: "7", annotations: { k: "v" } as Record<string, string> },
  spec: { agent: { image: "img" } },
});
const fakes = () => {
  const custom = fakeApi<CustomObjectsApi>((_m, params) => ({ ...servedAs(params), served: true }));
  return { clients: { customObjects: custom.api }, calls: custom.calls };
};

describe("differences from Go", () => {
  it("An empty annotation key is refused", async () => {
    for (const build of [() => annotationsMergePatch({ "": "x" }), () => annotationsMergePatchJSON({ "": null })]) {
      expect(build).toThrow(expect.objectContaining({ code: "ERR_INVALID_ANNOTATION_DELTA" }));
    }
    const { clients, calls } = fakes();
    await expect(patchAnnotations(clients, set(), { "": "x" })).rejects.toSatisfy((err) =>
      isCocoonError(err, "ERR_INVALID_ANNOTATION_DELTA"),
    );
    expect(calls).toHaveLength(0);
  });

  it("A patch that changes nothing sends no request", async () => {
    const { clients, calls } = fakes();
    const original = set();
    expect(await patch(clients, original, (copy) => void (copy.spec.agent.image = "img"))).toBe(original);
    expect(await patchStatus(clients, original, () => undefined, { optimisticLock: true })).toBe(original);
    expect(calls).toHaveLength(0); // Go: two requests, `{}` and `{"metadata":{"resourceVersion":"7"}}`
  });

  it("Deleting the last annotation deletes that key, not the map", async () => {
    const { clients, calls } = fakes();
    await patch(clients, set(), (copy) => void (copy.metadata.annotations = {}));
    expect(calls.map((call) => call.wireBody)).toEqual(['{"metadata":{"annotations":{"k":null}}}']); // Go: {"metadata":{"annotations":null}}
  });

  it("parseRef refuses what Go's ParseRef mis-splits", () => {
    const refs = readGoJSON<{ refs: { ref: string; parseRef: { name: string; tag: string } }[] }>("registry/ociutil.json").refs;
    const go = (ref: string) => refs.find((v) => v.ref === ref)?.parseRef;
    const digest = `sha256:${"0123456789abcdef".repeat(4)}`;
    const byDigest = `vm-1@${digest}`;
    const withPort = "localhost:5000/vm-1:hibernate";
    expect([go(byDigest), go(withPort)]).toEqual([
      { name: "vm-1@sha256", tag: "0123456789abcdef".repeat(4) },
      { name: "localhost", tag: "5000/vm-1:hibernate" },
    ]); // Go
    expect([parseReference(byDigest), parseReference(withPort)]).toMatchObject([
      { registry: "index.docker.io", repository: "library/vm-1", kind: "digest", identifier: digest },
      { registry: "localhost:5000", repository: "vm-1", kind: "tag", identifier: "hibernate" },
    ]);
    expect([referenceErrorOf(() => parseRef(byDigest)), referenceErrorOf(() => parseRef(withPort))]).toEqual([
      `reference "${byDigest}" is not a registry-relative repo[:tag]: it names the digest ${digest}, not a tag`,
      `reference "${withPort}" is not a registry-relative repo[:tag]: repository can only contain the characters \`abcdefghijklmnopqrstuvwxyz0123456789_-./\`: localhost:5000/vm-1`,
    ]);
    expect([isRelativeRef(byDigest), isRelativeRef(withPort)]).toEqual([false, false]); // as Go
    expect(parseRef("vm-1:hibernate")).toEqual(go("vm-1:hibernate")); // Go's split where it is right
  });

  it("The pod builders never change the set", () => {
    const storageSet = () => ({
      metadata: { name: "demo", namespace: "ns", uid: "u" },
      spec: {
        agent: { image: "img", storage: "10Gi", resources: { requests: { cpu: "1" }, limits: { cpu: "2" } } },
        toolboxes: [{ name: "db", storage: "5Gi", resources: { limits: { memory: "1Gi" } } }],
      },
    });
    const set = storageSet();
    Object.freeze(set.spec.agent.resources.requests);
    Object.freeze(set.spec.agent.resources.limits);
    Object.freeze(set.spec.toolboxes[0]?.resources.limits);
    const pods = [buildMainPod(set), buildSubAgentPod(set, 1, "vk-ns-demo-0"), buildToolboxPod(set, set.spec.toolboxes[0] ?? { name: "" })];
    expect(set).toEqual(storageSet()); // Go: the set's maps now hold ephemeral-storage
    expect(pods.map((pod) => pod.spec.containers[0].resources.limits)).toEqual([
      { cpu: "2", "ephemeral-storage": "10Gi" },
      { cpu: "2", "ephemeral-storage": "10Gi" },
      { memory: "1Gi", "ephemeral-storage": "5Gi" },
    ]);
  });

  it("The owner reference needs no scheme", () => {
    const vectors = readGoJSON<{ errors: { cocoonSetJSON: string; error: string }[] }>("operator/pods.json");
    expect(vectors.errors.map((e) => e.error)).toEqual(
      Array(2).fill('set controller reference: no kind is registered for the type v1.CocoonSet in scheme "pkg/runtime/scheme.go:111"'),
    );
    const set = JSON.parse(vectors.errors[0]?.cocoonSetJSON ?? "{}") as CocoonSetLike;
    expect(buildMainPod(set).metadata.ownerReferences).toEqual([
      {
        apiVersion: "cocoonset.cocoonstack.io/v1",
        kind: "CocoonSet",
        name: "demo",
        uid: "6f1c0000-0000-4000-8000-000000000092",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(buildToolboxPod(set, set.spec?.toolboxes?.[0] ?? { name: "" }).metadata.ownerReferences).toEqual(
      buildMainPod(set).metadata.ownerReferences,
    );
  });

  it("A hostname affinity needs a node", () => {
    const vectors = readGoJSON<{ affinity: { nodeName: string; hostnameAffinityJSON: string }[] }>("operator/pods.json");
    expect(vectors.affinity.find((a) => a.nodeName === "")?.hostnameAffinityJSON).toContain('"values":[""]'); // Go
    for (const build of [() => requiredHostnameAffinity(""), () => preferredHostnameAffinity("")]) {
      expect(build).toThrow(
        expect.objectContaining({ code: "ERR_INVALID_ARGUMENT", message: "hostname affinity needs a non-empty node name" }),
      );
    }
  });

  describe("what the virtual kubelet writes", () => {
    const T0 = new Date("2026-08-12T10:00:00Z");
    const LATER = new Date("2026-08-12T11:00:00Z");
    const running = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
    const served = (): V1Pod => ({
      metadata: { name: "demo-0", namespace: "ns", annotations: { [Annotation.LifecycleState]: LifecycleState.Ready } },
      spec: { containers: [{ name: "agent", image: "x" }] },
      status: {
        phase: "Running",
        podIP: "10.88.0.7",
        podIPs: [{ ip: "10.88.0.7" }],
        startTime: T0,
        conditions: [
          { type: "PodScheduled", status: "True", lastTransitionTime: T0 },
          { type: "Ready", status: "True", lastTransitionTime: T0 },
          { type: "ContainersReady", status: "True", lastTransitionTime: T0 },
          { type: "Initialized", status: "True", lastTransitionTime: T0 },
        ],
        containerStatuses: [{ name: "agent", ready: true, restartCount: 0, image: "", imageID: "", state: { running: { startedAt: T0 } } }],
      },
    });

    it("The pod status moves a time only when something changes", async () => {
      const pod = served();
      const status = podStatusForVM(pod, running, { now: LATER });
      expect(status.conditions.map((c) => [c.type, c.lastTransitionTime])).toEqual([
        ["PodScheduled", "2026-08-12T10:00:00Z"], // Go: dropped
        ["Ready", "2026-08-12T10:00:00Z"], // Go: 11:00:00, and again on every refresh
        ["ContainersReady", "2026-08-12T10:00:00Z"],
        ["Initialized", "2026-08-12T10:00:00Z"],
      ]);
      expect(status.containerStatuses?.[0]?.state).toEqual({ running: { startedAt: "2026-08-12T10:00:00Z" } });
      const core = fakeApi<CoreV1Api>(() => ({}));
      expect(await writePodStatus({ core: core.api }, pod, status)).toBe(pod);
      expect(core.calls).toHaveLength(0); // Go: a status write every refresh
    });

    it("ContainersReady is reported beside Ready", () => {
      const { metadata, spec } = served();
      for (const probeReady of [true, false]) {
        const conditions = podStatusForVM({ metadata, spec }, { ...running, probeReady }, { now: LATER }).conditions;
        const status = (type: string) => conditions.find((c) => c.type === type)?.status;
        expect([status("Ready"), status("ContainersReady")]).toEqual(probeReady ? ["True", "True"] : ["False", "False"]); // Go: no ContainersReady
      }
    });

    it("A hibernated or deleted VM's pod is not ready", async () => {
      const core = fakeApi<CoreV1Api>((_m, params) => servedAs(params, served().metadata?.uid));
      await writePodStatus({ core: core.api }, served(), podStatusForVM(served(), { state: VMState.Absent }, { now: LATER }));
      const sent = JSON.parse(core.calls[0]?.wireBody ?? "{}") as { status: Record<string, unknown> };
      expect(sent.status).toMatchObject({ phase: "Pending", podIP: null, podIPs: null, containerStatuses: null }); // Go: only the phase
      const ready = (conditions: { type: string; status: string }[]) =>
        conditions.filter((c) => c.type.endsWith("Ready")).map((c) => c.status);
      expect(ready(sent.status.conditions as { type: string; status: string }[])).toEqual(["False", "False"]); // Go: Ready stays True
      const deleted = podStatusForVM(served(), { state: VMState.Deleted }, { now: LATER });
      expect([deleted.phase, ...ready(deleted.conditions)]).toEqual(["Succeeded", "False", "False"]); // Go: Succeeded and Ready
      expect(deleted.containerStatuses?.[0]?.state).toEqual({
        terminated: { exitCode: 0, reason: "Completed", startedAt: "2026-08-12T10:00:00Z", finishedAt: "2026-08-12T11:00:00Z" },
      }); // Go: still running
    });

    it("The node's conditions carry times, and its labels are checked first", () => {
      const resources = { cpuCores: 1, memoryBytes: 2 ** 30, storageBytes: 2 ** 30, snapshotCache: { allocatableBytes: 0 } };
      const node = buildVirtualNode({ name: "n", nodeIP: "10.0.0.4", resources, now: LATER });
      expect(node.status.conditions.every((c) => c.lastHeartbeatTime.getTime() === LATER.getTime())).toBe(true); // Go: null
      for (const bad of [{ pool: "a/b" }, { snapshotCompatibilityClass: "-x" }, { name: "" }, { nodeIP: "" }, { kubeletPort: 70000 }]) {
        expect(() => buildVirtualNode({ name: "n", nodeIP: "10.0.0.4", resources, now: LATER, ...bad })).toThrow(
          expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }),
        );
      }
    });

    it("The lifecycle goes after the pod status, on hibernate too", async () => {
      const core = fakeApi<CoreV1Api>((_m, params) => servedAs(params, served().metadata?.uid));
      const { sent } = await reportVM({ core: core.api }, served(), { state: LifecycleState.Hibernated, vm: { state: VMState.Absent } });
      expect(sent).toEqual(["status", "lifecycle"]);
      expect(core.calls.map((c) => c.method)).toEqual(["patchNamespacedPodStatus", "patchNamespacedPod"]); // Go's hibernate: the annotation first
    });

    it("A failed pod without its VM is left to the operator", () => {
      const failed = {
        metadata: {
          name: "demo-0",
          namespace: "ns",
          annotations: { [Annotation.VMName]: "vk-ns-demo-0", [Annotation.LifecycleState]: LifecycleState.Failed },
        },
      };
      expect(decideKubeletAction(failed, { exists: false, keptSnapshot: true })).toEqual({ action: "none", reason: "failed" }); // Go: wakes again
    });
  });

  it("snapshot.json is checked against its schema, before any upload", async () => {
    // Each decodes without an error in Go (version 0 and an empty config, an empty id, a negative
    // cpu): Go would push a config blob with an empty snapshotId or cpu -2. Ours: the schema refuses.
    for (const [json, field] of [
      ['{"id":"snap-1","name":"vm","cpu":2}', "version"],
      ['{"version":1,"config":{"name":"vm"}}', "config.id"],
      ['{"version":1,"config":{"id":"snap-1","name":"vm","cpu":-2}}', "config.cpu"],
    ] as const) {
      const reg = new MemoryRegistry();
      const tar = Buffer.concat([tarEntry("snapshot.json", json), tarEntry("memory-ranges", "bytes"), TRAILER]);
      const err = await pushSnapshot(pieces(tar), reg, { name: "vm" }).catch((e: unknown) => e);
      expect(isExportFormatError(err) && [err.entry, err.field, err.message.startsWith("parse snapshot.json:")]).toEqual([
        "snapshot.json",
        field,
        false, // not a decode error: Go's decoder takes it
      ]);
      expect(reg.calls).toEqual([]);
    }
  });
});
