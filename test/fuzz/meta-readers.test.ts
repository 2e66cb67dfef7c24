/**
 * Every `./meta` function documented as never throwing, fed hostile values: it returns a value of
 * its type, never throws, and never writes to its input. A completeness check keeps the list whole:
 * each function export of `./meta` is either fuzzed here or listed with the reason it may throw.
 *
 * @module
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as meta from "../../src/meta/index.js";
import { type Recipe, hostileKubeObject, hostileValue, materialize } from "./support/hostile-values.js";
import { watchWrites } from "./support/write-recorder.js";

const RUNS = 300;
type Check = (result: unknown) => boolean;

const isBoolean: Check = (r) => typeof r === "boolean";
const isString: Check = (r) => typeof r === "string";
const isInt64: Check = (r) => (typeof r === "number" && Number.isSafeInteger(r)) || typeof r === "bigint";
const isRole: Check = (r) => Object.values(meta.Role).includes(r as meta.Role);
const isLifecycleStatus: Check = (r) => {
  const { state, observedGeneration, message } = r as meta.LifecycleStatus;
  return isString(state) && isInt64(observedGeneration) && isString(message);
};
const isVMSpec: Check = (r) =>
  Object.entries(r as meta.VMSpec).every(([field, value]) =>
    (["managed", "forcePull", "noDirectIO"].includes(field) ? isBoolean : isString)(value),
  );
const isVMRuntime: Check = (r) => {
  const { vmID, ip, vncPort } = r as meta.VMRuntime;
  return isString(vmID) && isString(ip) && Number.isSafeInteger(vncPort);
};

/** The readers of one object, and what each returns. */
const OBJECT_READERS: Record<string, [(obj: never) => unknown, Check]> = {
  readHibernateState: [meta.readHibernateState, isBoolean],
  readRestoreFromHibernate: [meta.readRestoreFromHibernate, isBoolean],
  readKeepSnapshotOnDelete: [meta.readKeepSnapshotOnDelete, isBoolean],
  readLifecycleStatus: [meta.readLifecycleStatus, isLifecycleStatus],
  readLifecycleState: [meta.readLifecycleState, isString],
  readLifecycleObservedGeneration: [meta.readLifecycleObservedGeneration, isInt64],
  readCocoonSetGeneration: [meta.readCocoonSetGeneration, isInt64],
  readHibernatedOnNode: [meta.readHibernatedOnNode, isString],
  parseVMSpec: [meta.parseVMSpec, isVMSpec],
  parseVMRuntime: [meta.parseVMRuntime, isVMRuntime],
  isPodReady: [meta.isPodReady, isBoolean],
  isPodTerminal: [meta.isPodTerminal, isBoolean],
  isContainerRunning: [meta.isContainerRunning, isBoolean],
  podNodePool: [meta.podNodePool, isString],
  hasCocoonTolerationKey: [meta.hasCocoonTolerationKey, isBoolean],
  cocoonSetOwnerName: [meta.cocoonSetOwnerName, isString],
  isOwnedByCocoonSet: [meta.isOwnedByCocoonSet, isBoolean],
};

/** The never-throwing functions of several arguments, with the check of their result. */
const MULTI_READERS: Record<string, [(...args: never[]) => unknown, Check, number]> = {
  roleForPod: [meta.roleForPod, isRole, 2],
  shouldSnapshotVM: [meta.shouldSnapshotVM, isBoolean, 2],
  extractAgentSlot: [meta.extractAgentSlot, isInt64, 3],
  inferRoleFromAgentSlot: [meta.inferRoleFromAgentSlot, isRole, 1],
  isTerminalLifecycleState: [meta.isTerminalLifecycleState, isBoolean, 1],
  isQuantity: [meta.isQuantity, isBoolean, 1],
  // The override is returned verbatim (documented), so only "never throws" is checked.
  connectionType: [meta.connectionType, () => true, 3],
  decideKubeletAction: [meta.decideKubeletAction, (r) => Object.values(meta.KubeletAction).includes((r as meta.KubeletDecision).action), 2],
  compareResourceVersions: [meta.compareResourceVersions, (r) => r === undefined || r === -1 || r === 0 || r === 1, 2],
};

/** Function exports that may throw, and why (each documents its `@throws` or takes typed input only). */
const MAY_THROW: Record<string, string> = {
  LastWrites:
    "class: construct it with new; record, isStale and forget never throw (kubelet/last-writes.test.ts, hostile watched-pod-total)",
  applyAnnotations: "writer: @throws ERR_INVALID_ANNOTATION_DELTA, mutates its object",
  annotationsMergePatch: "@throws ERR_INVALID_ANNOTATION_DELTA",
  annotationsSatisfied: "@throws ERR_INVALID_ANNOTATION_DELTA for a bad delta",
  annotationsMergePatchJSON: "@throws (annotations-patch-json.ts)",
  applyHibernateState: "writer",
  markRestoreFromHibernate: "writer",
  markKeepSnapshotOnDelete: "writer",
  applyLifecycleStatus: "writer: @throws ERR_INVALID_INTEGER",
  stampCocoonSetGeneration: "writer: @throws ERR_INVALID_INTEGER",
  stashHibernatedOnNode: "writer",
  clearHibernatedOnNode: "writer",
  applyVMSpec: "writer",
  applyVMRuntime: "writer: @throws ERR_INVALID_INTEGER",
  hibernateStateAnnotations: "delta builder, typed input",
  restoreFromHibernateAnnotations: "delta builder, no input",
  keepSnapshotOnDeleteAnnotations: "delta builder, no input",
  lifecycleStatusAnnotations: "delta builder: @throws ERR_INVALID_INTEGER",
  cocoonSetGenerationAnnotations: "delta builder: @throws ERR_INVALID_INTEGER",
  hibernatedOnNodeAnnotations: "delta builder, typed input",
  vmSpecAnnotations: "delta builder, typed input",
  vmRuntimeAnnotations: "delta builder: @throws ERR_INVALID_INTEGER",
  lifecycleStatusKey: "formatter: formatInt throws ERR_INVALID_INTEGER",
  fromAgentSpec: "builder: @throws ERR_INVALID_QUANTITY, ERR_INVALID_INTEGER",
  fromToolboxSpec: "builder: @throws ERR_INVALID_QUANTITY, ERR_INVALID_INTEGER",
  quantityString: "@throws ERR_INVALID_QUANTITY",
  parseQuantity: "@throws ERR_INVALID_QUANTITY",
  vmNameForDeployment: "formatter: @throws ERR_INVALID_INTEGER",
  vmNameForPod: "formatter, typed string input",
  agentVMNamePrefix: "formatter, typed string input",
  podKey: "formatter, typed string input",
  preferredHostnameAffinity: "builder: @throws ERR_INVALID_ARGUMENT",
  requiredHostnameAffinity: "builder: @throws ERR_INVALID_ARGUMENT",
  buildAgentPod: "pod builder: @throws ERR_INVALID_ARGUMENT, ERR_INVALID_QUANTITY (pods/agent-pod.ts)",
  buildMainPod: "pod builder: @throws as buildAgentPod",
  buildSubAgentPod: "pod builder: @throws ERR_INVALID_ARGUMENT for slot 0",
  buildToolboxPod: "pod builder: @throws ERR_INVALID_QUANTITY",
  buildWakePod: "pod builder: @throws as buildAgentPod",
  newManagedPod: "pod builder: @throws ERR_INVALID_INTEGER for a generation",
  toolboxPodName: "formatter, typed string input",
  applyStorageRequest: "builder: @throws ERR_INVALID_QUANTITY",
  podSpecMatchesAgent: "drift check on a built set: @throws ERR_INVALID_QUANTITY for the set's quantity",
  podSpecMatchesToolbox: "drift check on a built set: @throws ERR_INVALID_QUANTITY for the set's quantity",
  marshalPodGoJSON: "@throws ERR_INVALID_ARGUMENT for a field a built pod does not hold",
  clearVMRuntime: "writer, mutates its object",
  clearVMRuntimeAnnotations: "delta builder, no input",
  podStatusForVM: "agent builder, typed input (agent/pod-status.ts)",
  buildVirtualNode: "agent builder: @throws ERR_INVALID_ARGUMENT (agent/node.ts)",
  nodeResources: "agent builder: @throws ERR_INVALID_INTEGER (agent/node-resources.ts)",
  isCocoonError: "errors.ts (outside this suite's scope)",
  CocoonError: "the error class",
};

function expectReads(fn: (...args: never[]) => unknown, check: Check, recipes: readonly Recipe[]): void {
  const watched = recipes.map((recipe) => watchWrites(materialize(recipe)));
  const result = fn(...(watched.map((w) => w.value) as never[]));
  expect(check(result), `a result of type ${typeof result}`).toBe(true);
  expect(watched.flatMap((w) => w.writes)).toEqual([]);
}

describe("./meta readers never throw and never write, on any value", () => {
  it.each(Object.entries(OBJECT_READERS))("%s", (_name, [fn, check]) => {
    fc.assert(
      fc.property(fc.oneof(hostileKubeObject, hostileValue()), (value) => expectReads(fn, check, [value])),
      { numRuns: RUNS },
    );
  });

  it.each(Object.entries(MULTI_READERS))("%s", (_name, [fn, check, arity]) => {
    const argument = fc.oneof(hostileKubeObject, hostileValue("kind"));
    fc.assert(
      fc.property(fc.array(argument, { minLength: arity, maxLength: arity }), (args) => expectReads(fn, check, args)),
      { numRuns: RUNS },
    );
  });

  it("every function export of ./meta is fuzzed here or says why it may throw", () => {
    const functions = Object.entries(meta)
      .filter(([, value]) => typeof value === "function")
      .map(([name]) => name);
    const covered = new Set([...Object.keys(OBJECT_READERS), ...Object.keys(MULTI_READERS), ...Object.keys(MAY_THROW)]);
    expect(functions.filter((name) => !covered.has(name))).toEqual([]);
    expect([...covered].filter((name) => !functions.includes(name))).toEqual([]);
  });
});
