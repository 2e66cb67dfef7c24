import { type EntryMap, annotationsOf, ownString, readOwnStrings } from "../internal/safe-read.js";
import { type Annotated, type AnnotationDelta, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

/**
 * The VM the virtual kubelet should run, as the operator writes it on the pod. Empty strings and `false`
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
  return readOwnStrings(annotationsOf(obj), vmSpecOf);
}

/**
 * The spec as one literal with constant keys, each key loaded at its own site: a loop over a field
 * table made every load and store megamorphic, at several times the cost.
 */
function vmSpecOf(m: EntryMap, p: object): VMSpec {
  return {
    probePort: ownString(m, Annotation.ProbePort, m[Annotation.ProbePort], Annotation.ProbePort in p),
    vmName: ownString(m, Annotation.VMName, m[Annotation.VMName], Annotation.VMName in p),
    image: ownString(m, Annotation.Image, m[Annotation.Image], Annotation.Image in p),
    mode: ownString(m, Annotation.Mode, m[Annotation.Mode], Annotation.Mode in p),
    os: ownString(m, Annotation.OS, m[Annotation.OS], Annotation.OS in p),
    storage: ownString(m, Annotation.Storage, m[Annotation.Storage], Annotation.Storage in p),
    network: ownString(m, Annotation.Network, m[Annotation.Network], Annotation.Network in p),
    snapshotPolicy: ownString(m, Annotation.SnapshotPolicy, m[Annotation.SnapshotPolicy], Annotation.SnapshotPolicy in p),
    forkFrom: ownString(m, Annotation.ForkFrom, m[Annotation.ForkFrom], Annotation.ForkFrom in p),
    connType: ownString(m, Annotation.ConnType, m[Annotation.ConnType], Annotation.ConnType in p),
    backend: ownString(m, Annotation.Backend, m[Annotation.Backend], Annotation.Backend in p),
    managed: ownString(m, Annotation.Managed, m[Annotation.Managed], Annotation.Managed in p) === "true",
    forcePull: ownString(m, Annotation.ForcePull, m[Annotation.ForcePull], Annotation.ForcePull in p) === "true",
    noDirectIO: ownString(m, Annotation.NoDirectIO, m[Annotation.NoDirectIO], Annotation.NoDirectIO in p) === "true",
  };
}
