import { KIND_COCOONSET, Annotation } from "../meta/keys.js";
import { readCocoonSetGeneration, type Int64 } from "../meta/generation.js";
import { readHibernateState, readKeepSnapshotOnDelete, readRestoreFromHibernate } from "../meta/hibernate.js";
import { readHibernatedOnNode } from "../meta/hibernated-on-node.js";
import { LifecycleState, readLifecycleStatus, type LifecycleStatus } from "../meta/lifecycle.js";
import { parseInt32, parseInt64 } from "../meta/internal/strconv.js";
import { parseVMRuntime, type VMRuntime } from "../meta/vmruntime.js";
import { parseVMSpec, type VMSpec } from "../meta/vmspec.js";
import type { FieldPath } from "./field-path.js";

/** An object's cocoon annotations as the Go readers return them. */
export interface AnnotationsView {
  /** `parseVMSpec`. */
  readonly vmSpec: VMSpec;
  /** `parseVMRuntime`. */
  readonly vmRuntime: VMRuntime;
  /** `readLifecycleStatus`. */
  readonly lifecycleStatus: LifecycleStatus;
  /** `readHibernateState`. */
  readonly hibernateState: boolean;
  /** `readRestoreFromHibernate`. */
  readonly restoreFromHibernate: boolean;
  /** `readKeepSnapshotOnDelete`. */
  readonly keepSnapshotOnDelete: boolean;
  /** `readCocoonSetGeneration`. */
  readonly cocoonSetGeneration: Int64;
  /** `readHibernatedOnNode`, on a CocoonSet only. */
  readonly hibernatedOnNode?: string;
}

/** The view of one object, what the readers silently turn into zero values, and what Kubernetes would reject. */
export interface AnnotationsReading {
  /** The view; missing when the object has errors. */
  readonly view?: AnnotationsView;
  /** Surprises the readers hide, e.g. `vm.cocoonstack.io/hibernate="True" reads as false`. */
  readonly notes: readonly string[];
  /** Why Kubernetes would reject the object (an annotation that is not a string). */
  readonly errors: readonly { readonly path: FieldPath; readonly message: string }[];
}

const FLAGS: readonly string[] = [
  Annotation.Hibernate,
  Annotation.RestoreFromHibernate,
  Annotation.KeepSnapshotOnDelete,
  Annotation.Managed,
  Annotation.ForcePull,
  Annotation.NoDirectIO,
];
const INTEGERS: readonly [string, "int32" | "int64"][] = [
  [Annotation.CocoonSetGeneration, "int64"],
  [Annotation.LifecycleObservedGeneration, "int64"],
  [Annotation.VNCPort, "int32"],
];
const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.values(Annotation));
const STATES: readonly string[] = Object.values(LifecycleState);
const COCOON_KEY = /^([a-z0-9-]+\.)*cocoonstack\.io\//;

function notesOn(annotations: Readonly<Record<string, string>>): string[] {
  const notes: string[] = [];
  const raw = (key: string) => JSON.stringify(annotations[key]);
  for (const key of FLAGS) {
    const value = annotations[key];
    if (value !== undefined && value !== "" && value !== "true" && value !== "false") {
      notes.push(`${key}=${raw(key)} reads as false: only "true" counts`);
    }
  }
  for (const [key, bits] of INTEGERS) {
    const value = annotations[key];
    if (value !== undefined && value !== "" && (bits === "int64" ? parseInt64(value) : parseInt32(value)) === undefined) {
      notes.push(`${key}=${raw(key)} is not a decimal ${bits}: reads as 0`);
    }
  }
  const state = annotations[Annotation.LifecycleState];
  if (state !== undefined && state !== "" && !STATES.includes(state)) {
    notes.push(`${Annotation.LifecycleState}=${raw(Annotation.LifecycleState)} is not a lifecycle state (${STATES.join(", ")})`);
  }
  for (const key of Object.keys(annotations)) {
    if (COCOON_KEY.test(key) && !KNOWN_KEYS.has(key)) notes.push(`${key} is not an annotation of the cocoon contract: no reader sees it`);
  }
  return notes;
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

function annotationErrors(metadata: unknown): { path: FieldPath; message: string }[] {
  if (metadata === undefined || metadata === null) return [];
  if (typeof metadata !== "object" || Array.isArray(metadata)) {
    return [{ path: ["metadata"], message: `must be a mapping, got ${describeType(metadata)}` }];
  }
  const { annotations } = metadata as { annotations?: unknown };
  if (annotations === undefined || annotations === null) return [];
  if (typeof annotations !== "object" || Array.isArray(annotations)) {
    return [{ path: ["metadata", "annotations"], message: `must be a mapping of strings, got ${describeType(annotations)}` }];
  }
  // A null value decodes as "" in Go (kubectl sends it, the API server stores ""); anything else is rejected.
  return Object.entries(annotations)
    .filter(([, value]) => typeof value !== "string" && value !== null)
    .map(([key, value]) => ({ path: ["metadata", "annotations", key], message: `must be a string, got ${describeType(value)}: quote the value` }));
}

/** The annotations as Go decodes them: `null` values become `""`. */
function stringAnnotations(metadata: unknown): Record<string, string> {
  const annotations = (metadata as { annotations?: Record<string, string | null> | null } | null | undefined)?.annotations ?? {};
  return Object.fromEntries(Object.entries(annotations).map(([key, value]) => [key, value ?? ""]));
}

/** {@link VMSpec} in Go's field order, for reading. */
function inGoOrder(spec: VMSpec): VMSpec {
  const { vmName, image, mode, os, storage, network, snapshotPolicy, forkFrom, managed, forcePull, noDirectIO, connType, backend, probePort } = spec;
  return { vmName, image, mode, os, storage, network, snapshotPolicy, forkFrom, managed, forcePull, noDirectIO, connType, backend, probePort };
}

/**
 * Reads an object's cocoon annotations with the contract's readers (`parseVMSpec`,
 * `parseVMRuntime`, `readLifecycleStatus`, ...), exactly as the Go operator and agent see them,
 * and notes the values they silently read as zero (`"True"`, `"59OO"`) and cocoon-like keys that
 * are not in the contract. An object with a non-string annotation gets errors and no view: the
 * API server would reject it.
 */
export function readAnnotationsView(value: unknown): AnnotationsReading {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { notes: [], errors: [{ path: [], message: `expected a Kubernetes object (a mapping), got ${describeType(value)}` }] };
  }
  const obj = value as { kind?: unknown; metadata?: unknown };
  const errors = annotationErrors(obj.metadata);
  if (errors.length > 0) return { notes: [], errors };
  const pod = { metadata: { annotations: stringAnnotations(obj.metadata) } };
  const view: AnnotationsView = {
    vmSpec: inGoOrder(parseVMSpec(pod)),
    vmRuntime: parseVMRuntime(pod),
    lifecycleStatus: readLifecycleStatus(pod),
    hibernateState: readHibernateState(pod),
    restoreFromHibernate: readRestoreFromHibernate(pod),
    keepSnapshotOnDelete: readKeepSnapshotOnDelete(pod),
    cocoonSetGeneration: readCocoonSetGeneration(pod),
    ...(obj.kind === KIND_COCOONSET ? { hibernatedOnNode: readHibernatedOnNode(pod) } : {}),
  };
  return { view, notes: notesOn(pod.metadata.annotations), errors: [] };
}
