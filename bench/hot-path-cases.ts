/**
 * The hot-path cases that bench/compare.ts times against their Go twins in conformance/go/cocoon:
 * the same fixture (bench/fixtures/hot-path.json), the same work, and case names equal to the Go
 * benchmark names, so each TS figure is paired with its Go one.
 */
import { readFileSync } from "node:fs";
import {
  type AgentSpecLike,
  type AnnotationDelta,
  type CocoonSetLike,
  type Int64,
  type PodLike,
  annotationsMergePatchJSON,
  applyVMSpec,
  buildMainPod,
  fromAgentSpec,
  lifecycleStatusAnnotations,
  marshalPodGoJSON,
  parseVMSpec,
  podSpecMatchesAgent,
  quantityString,
  readHibernateState,
  readLifecycleStatus,
  roleForPod,
} from "../src/meta/index.js";

/** bench/fixtures/hot-path.json. */
export interface HotPathFixture {
  pod: PodLike & { metadata: { name: string; annotations: Record<string, string> } };
  vmName: string;
  agentSpec: AgentSpecLike;
  snapshotPolicy: string;
  forkFrom: string;
  delta3: AnnotationDelta;
  delta12: AnnotationDelta;
  quantities: string[];
  /** The sizes of the reconcile pass, one case each; the first is used for the agreement check. */
  reconcilePods: number[];
  /** The set the operator cases build and check pods from. */
  cocoonSet: CocoonSetLike;
}

/** One timed case: `run` does one call's work, named as its Go benchmark (`Quantity/512Mi`). */
export interface HotPathCase {
  readonly name: string;
  readonly label: string;
  readonly run: () => unknown;
}

export const FIXTURE_PATH = new URL("fixtures/hot-path.json", import.meta.url);

export function loadFixture(): HotPathFixture {
  return JSON.parse(readFileSync(FIXTURE_PATH, "utf8")) as HotPathFixture;
}

/** The fixture pod as pod `i` of a set of `n`, as Go's reconcilePodList builds it. */
export function reconcilePods(fixture: HotPathFixture, n: number): PodLike[] {
  return Array.from({ length: n }, (_, i) => {
    const pod = structuredClone(fixture.pod);
    pod.metadata.name = `demo-${i}`;
    pod.metadata.annotations["vm.cocoonstack.io/name"] = `vk-prod-demo-${i}`;
    pod.metadata.annotations["vm.cocoonstack.io/lifecycle-observed-generation"] = String(i);
    return pod;
  });
}

const next = (generation: Int64): Int64 => (typeof generation === "bigint" ? generation + 1n : generation + 1);

/** The per-pod work of a status pass, as Go's reconcile: read spec, lifecycle, role, hibernate; build the lifecycle patch. */
export function reconcile(pod: PodLike) {
  const spec = parseVMSpec(pod);
  const status = readLifecycleStatus(pod);
  const role = roleForPod(pod, spec.vmName);
  const hibernate = readHibernateState(pod);
  const patch = annotationsMergePatchJSON(
    lifecycleStatusAnnotations({ state: "ready", observedGeneration: next(status.observedGeneration), message: "" }),
  );
  return { spec, status, role, hibernate, patch };
}

/** Every case, in report order. */
export function hotPathCases(fixture: HotPathFixture): HotPathCase[] {
  const { pod, vmName, agentSpec, snapshotPolicy, forkFrom } = fixture;
  const spec = fromAgentSpec(agentSpec, vmName, snapshotPolicy, forkFrom);
  const mainPod = buildMainPod(fixture.cocoonSet);
  return [
    { name: "ParseVMSpec", label: "parseVMSpec (17 annotations)", run: () => parseVMSpec(pod) },
    { name: "ReadLifecycleStatus", label: "readLifecycleStatus", run: () => readLifecycleStatus(pod) },
    { name: "RoleForPod", label: "roleForPod", run: () => roleForPod(pod, vmName) },
    {
      name: "FromAgentSpec",
      label: "fromAgentSpec (Go: storage quantity cached)",
      run: () => fromAgentSpec(agentSpec, vmName, snapshotPolicy, forkFrom),
    },
    { name: "ApplyVMSpec", label: "applyVMSpec (fresh pod)", run: () => applyVMSpec({ metadata: {} }, spec) },
    ...fixture.quantities.map((text) => ({
      name: `Quantity/${text}`,
      label: `quantity parse + text: ${text}`,
      run: () => quantityString(text),
    })),
    { name: "AnnotationsMergePatch/3", label: "annotationsMergePatchJSON (3 keys)", run: () => annotationsMergePatchJSON(fixture.delta3) },
    {
      name: "AnnotationsMergePatch/12",
      label: "annotationsMergePatchJSON (12 keys)",
      run: () => annotationsMergePatchJSON(fixture.delta12),
    },
    ...fixture.reconcilePods.map((n) => reconcileCase(fixture, n)),
    { name: "BuildMainPod", label: "buildMainPod (the operator's main pod)", run: () => buildMainPod(fixture.cocoonSet) },
    {
      name: "PodSpecMatchesAgent",
      label: "podSpecMatchesAgent (drift check, live main pod)",
      run: () => podSpecMatchesAgent(mainPod, fixture.cocoonSet, 0),
    },
  ];
}

/** One pod per call of a pass over `n` pods, cycling; the pods are built when the case is. */
function reconcileCase(fixture: HotPathFixture, n: number): HotPathCase {
  const pods = reconcilePods(fixture, n);
  let i = 0;
  return {
    name: `ReconcilePerPod/${String(n)}`,
    label: `reconcile pass, per pod (N = ${String(n)})`,
    run: () => {
      const result = reconcile(pods[i] ?? fixture.pod);
      i = (i + 1) % pods.length;
      return result;
    },
  };
}

/** What each case returns, in the shape Go's TestWriteResults writes, for the agreement check. */
export function hotPathResults(fixture: HotPathFixture): unknown {
  const { pod, vmName, agentSpec, snapshotPolicy, forkFrom } = fixture;
  const spec = fromAgentSpec(agentSpec, vmName, snapshotPolicy, forkFrom);
  const applied: PodLike & { metadata: { annotations?: Record<string, string> } } = { metadata: {} };
  applyVMSpec(applied, spec);
  const pods = reconcilePods(fixture, fixture.reconcilePods[0] ?? 1);
  return {
    parseVMSpec: parseVMSpec(pod),
    readLifecycleStatus: readLifecycleStatus(pod),
    roleForPod: roleForPod(pod, vmName),
    fromAgentSpec: spec,
    applyVMSpec: applied.metadata.annotations,
    quantity: Object.fromEntries(fixture.quantities.map((text) => [text, quantityString(text)])),
    mergePatch3: annotationsMergePatchJSON(fixture.delta3),
    mergePatch12: annotationsMergePatchJSON(fixture.delta12),
    reconcileLastPod: reconcile(pods[pods.length - 1] ?? pod),
    buildMainPod: marshalPodGoJSON(buildMainPod(fixture.cocoonSet)),
    podSpecMatchesAgent: podSpecMatchesAgent(buildMainPod(fixture.cocoonSet), fixture.cocoonSet, 0),
  };
}
