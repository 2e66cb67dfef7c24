import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Annotation } from "../keys.js";
import { LifecycleState } from "../lifecycle.js";
import { decideKubeletAction } from "./decide.js";
import type { KubeletDecision, KubeletVMFacts, DecisionPod } from "./decide-types.js";

// One row per branch of vk-cocoon's pod callbacks, each with the Go line it comes from. The
// sources are vk-cocoon as stored in the public code index (the snapshot `fetch` serves, a9cb04f of
// 2026-04-24, predates the lifecycle annotations, restore-from-hibernate and keep-snapshot-on-delete):
//   provider/cocoon/create.go  @ 027f4743cf161b8c1ab845d034eb014fb4364e93
//   provider/cocoon/update.go  @ 0261ee67473836b77a2c6d4b7e77c4c2b8d743fb
//   provider/cocoon/delete.go  blob 07553f747523798c9e529494bf37f1f76b466fbd (the version that reads keep-snapshot-on-delete)
// and, for the one row that departs from it, cocoon-operator @ 6151b055 (cocoonset/reconciler.go).

const VM = "vk-prod-demo-0";
const TS = "2026-08-12T10:00:00Z";

/** A managed cocoon pod of CocoonSet `demo`, with `extra` annotations (a `null` removes one). */
function pod(extra: Record<string, string | null> = {}, deleting = false): DecisionPod {
  const annotations: Record<string, string> = { [Annotation.VMName]: VM, [Annotation.Managed]: "true" };
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) Reflect.deleteProperty(annotations, key);
    else annotations[key] = value;
  }
  return {
    metadata: {
      name: "demo-0",
      namespace: "prod",
      annotations,
      ownerReferences: [{ kind: "CocoonSet", name: "demo" }],
      ...(deleting ? { deletionTimestamp: TS } : {}),
    },
  };
}

const state = (s: string) => ({ [Annotation.LifecycleState]: s });
const HIBERNATE = { [Annotation.Hibernate]: "true" };
const RESTORE = { [Annotation.RestoreFromHibernate]: "true" };
const KEEP = { [Annotation.KeepSnapshotOnDelete]: "true" };
const UNMANAGED = { [Annotation.Managed]: null };

const running: KubeletVMFacts = { exists: true, keptSnapshot: false };
const gone: KubeletVMFacts = { exists: false, keptSnapshot: false };
const kept: KubeletVMFacts = { exists: false, keptSnapshot: true };
const missing: KubeletVMFacts = { exists: false, keptSnapshot: false, hibernateSnapshot: "missing" };
const del = (removeVM: boolean, keepSnapshot: boolean, saveLatest: boolean): KubeletDecision => ({
  action: "delete",
  removeVM,
  keepSnapshot,
  saveLatest,
});

const ROWS: readonly (readonly [branch: string, go: string, pod: DecisionPod, vm: KubeletVMFacts, expected: KubeletDecision])[] = [
  // DeletePod
  [
    "deleted, VM runs, not flagged: push :latest, remove it, drop the snapshots",
    "delete.go:48-58",
    pod({}, true),
    running,
    del(true, false, true),
  ],
  [
    "deleted, VM runs, flagged keep-snapshot-on-delete: the snapshot stays",
    "delete.go:33,57",
    pod(KEEP, true),
    running,
    del(true, true, true),
  ],
  [
    "deleted, VM runs, snapshot policy never: no :latest push",
    "delete.go:48",
    pod({ [Annotation.SnapshotPolicy]: "never" }, true),
    running,
    del(true, false, false),
  ],
  ["deleted, no VM, flagged: a released seat keeps the node's copy", "delete.go:36-39", pod(KEEP, true), kept, del(false, true, false)],
  ["deleted, no VM, not flagged: the node's copy is dropped", "delete.go:36-41", pod({}, true), kept, del(false, false, false)],
  ["deleted, and hibernate still set: deletion wins", "delete.go:21", pod({ ...HIBERNATE, ...KEEP }, true), running, del(true, true, true)],
  // CreatePod / UpdatePod
  [
    "no VM name: not a cocoon pod",
    "create.go:31-33",
    pod({ [Annotation.VMName]: null }),
    gone,
    { action: "none", reason: "not-a-cocoon-pod" },
  ],
  [
    "hibernate wanted, VM runs: hibernate it",
    "update.go:34-35",
    pod({ ...HIBERNATE, ...state(LifecycleState.Ready) }),
    running,
    { action: "hibernate" },
  ],
  [
    "hibernate wanted, no VM: already hibernated",
    "update.go:48-52",
    pod({ ...HIBERNATE, ...state(LifecycleState.Hibernated) }),
    kept,
    { action: "none", reason: "hibernated" },
  ],
  [
    "hibernate wanted on a pod never reported on: CreatePod boots it regardless",
    "create.go:36,53",
    pod(HIBERNATE),
    gone,
    { action: "create" },
  ],
  [
    "VM runs, nothing asked: no-op (the lifecycle is republished on a generation bump)",
    "update.go:48-52",
    pod(state(LifecycleState.Ready)),
    running,
    { action: "none", reason: "running" },
  ],
  ["a new pod whose VM exists: adopted", "create.go:38-46", pod(), running, { action: "none", reason: "running" }],
  [
    "woken in place, the node kept the copy: wake from it",
    "update.go:41-42,168-170",
    pod(state(LifecycleState.Hibernated)),
    kept,
    { action: "wake", from: "kept" },
  ],
  [
    "woken in place, no copy on the node: pull :hibernate",
    "update.go:41-42,179-180",
    pod(state(LifecycleState.Hibernated)),
    gone,
    { action: "wake", from: "registry" },
  ],
  [
    "woken while still hibernating (the VM was removed): wake",
    "update.go:41-42",
    pod(state(LifecycleState.Hibernating)),
    gone,
    { action: "wake", from: "registry" },
  ],
  [
    "woken in place, the registry has no :hibernate: failed, never a fresh boot",
    "update.go:127-130,180-181",
    pod(state(LifecycleState.Hibernated)),
    missing,
    { action: "fail", message: `pull hibernation snapshot ${VM}: not found on the node or in the registry` },
  ],
  [
    "restore-from-hibernate (a wake pod), copy on the node: wake from it",
    "create.go:151-152",
    pod(RESTORE),
    kept,
    { action: "wake", from: "kept" },
  ],
  [
    "restore-from-hibernate, no copy on the node: pull :hibernate",
    "create.go:151-152",
    pod(RESTORE),
    gone,
    { action: "wake", from: "registry" },
  ],
  [
    "restore-from-hibernate, the registry has none: failed",
    "create.go:53-60,152-154",
    pod(RESTORE),
    missing,
    { action: "fail", message: `pull hibernation snapshot ${VM}: not found on the node or in the registry` },
  ],
  [
    "restore-from-hibernate, both: the node's copy wins",
    "update.go:168-170",
    pod(RESTORE),
    { ...missing, keptSnapshot: true },
    { action: "wake", from: "kept" },
  ],
  ["a new managed pod: create the VM from its image", "create.go:53", pod(), gone, { action: "create" }],
  [
    "a pod once ready whose VM is gone: created again, as after a restart",
    "create.go:53",
    pod(state(LifecycleState.Ready)),
    gone,
    { action: "create" },
  ],
  [
    "unmanaged, with its pre-assigned ID and IP: adopted",
    "create.go:135-140",
    pod({ ...UNMANAGED, [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.0.0.9" }),
    gone,
    { action: "none", reason: "unmanaged" },
  ],
  [
    "unmanaged, without an IP: failed",
    "create.go:136-138",
    pod({ ...UNMANAGED, [Annotation.VMID]: "vm-1" }),
    gone,
    { action: "fail", message: `unmanaged vm ${VM} missing pre-assigned IP/VMID` },
  ],
  // Departs from vk-cocoon: its UpdatePod would retry the wake (update.go:41); a failed pod is the
  // operator's to rebuild (cocoon-operator reconciler.go:233), and a retry could boot fresh over a hibernated VM.
  [
    "failed, no VM: left to the operator",
    "update.go:41 (not followed); operator reconciler.go:233",
    pod(state(LifecycleState.Failed)),
    gone,
    { action: "none", reason: "failed" },
  ],
];

describe("decideKubeletAction", () => {
  it.each(ROWS)("%s (%s)", (_branch, _go, input, vm, expected) => {
    expect(decideKubeletAction(input, vm)).toEqual(expected);
  });

  it("every row names the Go lines it comes from", () => {
    for (const [, go] of ROWS) expect(go).toMatch(/^(create|update|delete)\.go:\d+/);
  });

  it("reads a Date deletionTimestamp (client-node's V1Pod) as deleting", () => {
    const deleting = { ...pod(), metadata: { ...pod().metadata, deletionTimestamp: new Date(TS) } };
    expect(decideKubeletAction(deleting, gone)).toEqual(del(false, false, false));
  });

  it("never throws, whatever the pod holds", () => {
    const garbage = fc.oneof(fc.anything(), fc.constant(null), fc.string());
    const anyPod = fc.record(
      {
        metadata: fc.oneof(
          garbage,
          fc.record(
            {
              annotations: fc.oneof(
                garbage,
                fc.dictionary(fc.constantFrom(...Object.values(Annotation), "x"), fc.oneof(fc.string(), garbage)),
              ),
              deletionTimestamp: garbage,
              ownerReferences: garbage,
              namespace: garbage,
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    const facts = fc.record({
      exists: fc.boolean(),
      keptSnapshot: fc.boolean(),
      hibernateSnapshot: fc.constantFrom(undefined, "missing" as const),
    });
    fc.assert(
      fc.property(anyPod, facts, (p, vm) => {
        const decision = decideKubeletAction(p as DecisionPod, vm);
        expect(["create", "hibernate", "wake", "delete", "fail", "none"]).toContain(decision.action);
      }),
    );
  });

  it("never throws on a revoked proxy", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(decideKubeletAction({ metadata: { deletionTimestamp: proxy as never } }, gone)).toEqual({
      action: "none",
      reason: "not-a-cocoon-pod",
    });
    expect(decideKubeletAction(proxy as never, running)).toEqual({ action: "none", reason: "not-a-cocoon-pod" });
  });
});
