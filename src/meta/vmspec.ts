import { annotationsOf, stringEntryAt } from "../internal/safe-read.js";
import { type Annotated, type AnnotationDelta, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

/**
 * The VM the agent should run, as the operator writes it on the pod. Empty strings and `false`
 * mean "unset": both are represented by the annotation being absent.
 *
 * @example
 * ```ts
 * const spec: Partial<VMSpec> = { vmName: "vk-demo-sandbox-0", image: "ghcr.io/cocoonstack/agent:1.4", storage: "20Gi", managed: true };
 * applyVMSpec(pod, spec); // fields left out (or "" / false) are left alone
 * parseVMSpec(pod).storage; // => "20Gi"
 * ```
 */
export interface VMSpec {
  /** `vm.cocoonstack.io/name`. */
  vmName: string;
  /** `cocoonset.cocoonstack.io/image`. */
  image: string;
  /** `cocoonset.cocoonstack.io/mode`. */
  mode: string;
  /** `cocoonset.cocoonstack.io/os`. */
  os: string;
  /** `cocoonset.cocoonstack.io/storage`, a canonical quantity string (see {@link quantityString}). */
  storage: string;
  /** `cocoonset.cocoonstack.io/network`. */
  network: string;
  /** `cocoonset.cocoonstack.io/snapshot-policy`. */
  snapshotPolicy: string;
  /** `vm.cocoonstack.io/fork-from`. */
  forkFrom: string;
  /** `cocoonset.cocoonstack.io/managed` is `"true"`. */
  managed: boolean;
  /** `cocoonset.cocoonstack.io/force-pull` is `"true"`. */
  forcePull: boolean;
  /** `vm.cocoonstack.io/no-direct-io` is `"true"`. */
  noDirectIO: boolean;
  /** `vm.cocoonstack.io/conn-type`. */
  connType: string;
  /** `vm.cocoonstack.io/backend`. */
  backend: string;
  /** `vm.cocoonstack.io/probe-port`, a decimal string as in Go; `""` when unset. */
  probePort: string;
}

/**
 * Returns the delta that writes a VM spec: only non-empty strings and `true` flags. It never
 * deletes, so empty fields leave existing annotations alone (Go's `VMSpec.Apply`).
 *
 * @example
 * ```ts
 * vmSpecAnnotations({ vmName: "vk-ns-demo-0", image: "ubuntu:24.04", managed: true });
 * ```
 */
export function vmSpecAnnotations(spec: Partial<VMSpec>): AnnotationDelta {
  // One store per field, each with its own inline cache (a loop over a field table made every
  // store megamorphic), and each field read once.
  const delta: Record<string, string> = {};
  const {
    vmName,
    image,
    mode,
    os,
    storage,
    network,
    snapshotPolicy,
    forkFrom,
    connType,
    backend,
    managed,
    forcePull,
    noDirectIO,
    probePort,
  } = spec;
  if (vmName) delta[Annotation.VMName] = vmName;
  if (image) delta[Annotation.Image] = image;
  if (mode) delta[Annotation.Mode] = mode;
  if (os) delta[Annotation.OS] = os;
  if (storage) delta[Annotation.Storage] = storage;
  if (network) delta[Annotation.Network] = network;
  if (snapshotPolicy) delta[Annotation.SnapshotPolicy] = snapshotPolicy;
  if (forkFrom) delta[Annotation.ForkFrom] = forkFrom;
  if (connType) delta[Annotation.ConnType] = connType;
  if (backend) delta[Annotation.Backend] = backend;
  if (managed === true) delta[Annotation.Managed] = "true";
  if (forcePull === true) delta[Annotation.ForcePull] = "true";
  if (noDirectIO === true) delta[Annotation.NoDirectIO] = "true";
  if (probePort) delta[Annotation.ProbePort] = probePort;
  return delta;
}

/** Writes the VM spec on the pod, in place; the annotations map is created even when nothing is written. */
export function applyVMSpec(obj: Annotated, spec: Partial<VMSpec>): void {
  applyAnnotations(obj, vmSpecAnnotations(spec));
}

/**
 * Reads the VM spec from the pod: strings raw, flags true only for `"true"`. Never throws.
 *
 * The operator compares it with {@link fromAgentSpec}'s result field by field to detect drift.
 *
 * @example
 * ```ts
 * const current = parseVMSpec(pod);
 * const agent = set.spec?.agent;
 * const drifted = current.image !== agent?.image || current.mode !== agentModeOrDefault(agent.mode);
 * ```
 */
export function parseVMSpec(obj: Annotated): VMSpec {
  // The map is found once and the spec is one literal with constant keys: a loop over the field
  // tables made every load and store megamorphic, at several times the cost. Each load is written
  // here, so each key keeps its own inline cache, where one shared load turns polymorphic.
  const a = annotationsOf(obj);
  return {
    probePort: stringEntryAt(a, Annotation.ProbePort, (m) => m[Annotation.ProbePort]),
    vmName: stringEntryAt(a, Annotation.VMName, (m) => m[Annotation.VMName]),
    image: stringEntryAt(a, Annotation.Image, (m) => m[Annotation.Image]),
    mode: stringEntryAt(a, Annotation.Mode, (m) => m[Annotation.Mode]),
    os: stringEntryAt(a, Annotation.OS, (m) => m[Annotation.OS]),
    storage: stringEntryAt(a, Annotation.Storage, (m) => m[Annotation.Storage]),
    network: stringEntryAt(a, Annotation.Network, (m) => m[Annotation.Network]),
    snapshotPolicy: stringEntryAt(a, Annotation.SnapshotPolicy, (m) => m[Annotation.SnapshotPolicy]),
    forkFrom: stringEntryAt(a, Annotation.ForkFrom, (m) => m[Annotation.ForkFrom]),
    connType: stringEntryAt(a, Annotation.ConnType, (m) => m[Annotation.ConnType]),
    backend: stringEntryAt(a, Annotation.Backend, (m) => m[Annotation.Backend]),
    managed: stringEntryAt(a, Annotation.Managed, (m) => m[Annotation.Managed]) === "true",
    forcePull: stringEntryAt(a, Annotation.ForcePull, (m) => m[Annotation.ForcePull]) === "true",
    noDirectIO: stringEntryAt(a, Annotation.NoDirectIO, (m) => m[Annotation.NoDirectIO]) === "true",
  };
}
