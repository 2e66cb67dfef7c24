import type { AnnotationOfKind } from "./annotation-kinds.js";
import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
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

const STRING_FIELDS = [
  ["vmName", Annotation.VMName],
  ["image", Annotation.Image],
  ["mode", Annotation.Mode],
  ["os", Annotation.OS],
  ["storage", Annotation.Storage],
  ["network", Annotation.Network],
  ["snapshotPolicy", Annotation.SnapshotPolicy],
  ["forkFrom", Annotation.ForkFrom],
  ["connType", Annotation.ConnType],
  ["backend", Annotation.Backend],
] as const satisfies readonly (readonly [keyof VMSpec, AnnotationOfKind<"text" | "quantity">])[];

const FLAG_FIELDS = [
  ["managed", Annotation.Managed],
  ["forcePull", Annotation.ForcePull],
  ["noDirectIO", Annotation.NoDirectIO],
] as const satisfies readonly (readonly [keyof VMSpec, AnnotationOfKind<"flag">])[];

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
  const delta: Record<string, string> = {};
  for (const [field, key] of STRING_FIELDS) {
    const value = spec[field];
    if (value) delta[key] = value;
  }
  for (const [field, key] of FLAG_FIELDS) if (spec[field] === true) delta[key] = "true";
  if (spec.probePort) delta[Annotation.ProbePort] = spec.probePort;
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
 * const drifted = current.image !== set.spec.agent.image || current.mode !== agentModeOrDefault(set.spec.agent.mode);
 * ```
 */
export function parseVMSpec(obj: Annotated): VMSpec {
  const spec = { probePort: annotationOf(obj, Annotation.ProbePort) } as VMSpec;
  for (const [field, key] of STRING_FIELDS) spec[field] = annotationOf(obj, key);
  for (const [field, key] of FLAG_FIELDS) spec[field] = annotationOf(obj, key) === "true";
  return spec;
}
