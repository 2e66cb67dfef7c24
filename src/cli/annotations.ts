import { type AnnotationValueKind, annotationKind } from "../meta/annotation-kinds.js";
import { readCocoonSetGeneration, type Int64 } from "../meta/generation.js";
import { readHibernateState, readKeepSnapshotOnDelete, readRestoreFromHibernate } from "../meta/hibernate.js";
import { readHibernatedOnNode } from "../meta/hibernated-on-node.js";
import { parseInt32, parseInt64 } from "../internal/go/index.js";
import { KIND_COCOONSET } from "../meta/keys.js";
import { LifecycleState, readLifecycleStatus, type LifecycleStatus } from "../meta/lifecycle.js";
import { isQuantity } from "../meta/quantity.js";
import { parseVMRuntime, type VMRuntime } from "../meta/vmruntime.js";
import { parseVMSpec, type VMSpec } from "../meta/vmspec.js";
import { type FieldPath, describeManifest, describeValue, findingAt, formatFinding, identityOf, sourceOf } from "./findings.js";
import { type ParsedArgs, checkFileOperands, outputFormat, printErrors } from "./args.js";
import { type CliIO, loadInputs, toJSON, toYAMLStream } from "./io.js";

/** A pod's cocoon annotations as the Go readers return them. */
export interface PodAnnotationsView {
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
}

/** A CocoonSet's one cocoon annotation, the wake hint. */
export interface CocoonSetAnnotationsView {
  /** `readHibernatedOnNode`. */
  readonly hibernatedOnNode: string;
}

/** The view of one object, what the readers silently turn into zero values, and what Kubernetes would reject. */
export interface AnnotationsReading {
  /** The view; missing when the object has errors or is skipped. */
  readonly view?: PodAnnotationsView | CocoonSetAnnotationsView;
  /** Why the object has no view although it is well formed: it is not a Pod or a CocoonSet. */
  readonly skipped?: string;
  /** Surprises the readers hide, e.g. `vm.cocoonstack.io/hibernate="True" reads as false`. */
  readonly notes: readonly string[];
  /** Why Kubernetes would reject the object (an annotation that is not a string). */
  readonly errors: readonly { readonly path: FieldPath; readonly message: string }[];
}

/** Why objects that are neither a Pod nor a CocoonSet get no view. */
export const NOT_A_POD = "not a Pod: the cocoon annotations are read on pods, the wake hint on a CocoonSet";

const STATES: readonly string[] = Object.values(LifecycleState);
const COCOON_KEY = /^([a-z0-9-]+\.)*cocoonstack\.io\//;

/** What the readers make of `value` when it is not what `kind` holds; `undefined` when it is fine. */
function surprise(kind: AnnotationValueKind, value: string): string | undefined {
  if (value === "") return undefined;
  switch (kind) {
    case "flag":
      return value === "true" || value === "false" ? undefined : 'reads as false: only "true" counts';
    case "int32":
    case "int64":
      return (kind === "int64" ? parseInt64(value) : parseInt32(value)) === undefined ? `is not a decimal ${kind}: reads as 0` : undefined;
    case "quantity":
      return isQuantity(value) ? undefined : "is not a quantity such as 512Mi or 1.5Gi";
    case "lifecycle-state":
      return STATES.includes(value) ? undefined : `is not a lifecycle state (${STATES.join(", ")})`;
    default:
      return undefined;
  }
}

function notesOn(annotations: Readonly<Record<string, string>>): string[] {
  return Object.entries(annotations).flatMap(([key, value]) => {
    const kind = annotationKind(key);
    if (kind === undefined) return COCOON_KEY.test(key) ? [`${key} is not an annotation of the cocoon contract: no reader sees it`] : [];
    const note = surprise(kind, value);
    return note === undefined ? [] : [`${key}=${JSON.stringify(value)} ${note}`];
  });
}

function annotationErrors(metadata: unknown): { path: FieldPath; message: string }[] {
  if (metadata === undefined || metadata === null) return [];
  if (typeof metadata !== "object" || Array.isArray(metadata))
    return [{ path: ["metadata"], message: `must be a mapping, got ${describeValue(metadata)}` }];
  const annotations = Object.hasOwn(metadata, "annotations") ? (metadata as { annotations: unknown }).annotations : undefined;
  if (annotations === undefined || annotations === null) return [];
  if (typeof annotations !== "object" || Array.isArray(annotations)) {
    return [{ path: ["metadata", "annotations"], message: `must be a mapping of strings, got ${describeValue(annotations)}` }];
  }
  // A null value decodes as "" in Go (kubectl sends it, the API server stores ""); anything else is rejected.
  return Object.entries(annotations)
    .filter(([, value]) => typeof value !== "string" && value !== null)
    .map(([key, value]) => ({
      path: ["metadata", "annotations", key],
      message: `must be a string, got ${describeValue(value)}: quote the value`,
    }));
}

/** The annotations as Go decodes them: `null` values become `""`. */
function stringAnnotations(metadata: unknown): Record<string, string> {
  const meta = metadata as { annotations?: Record<string, string | null> | null } | null | undefined;
  const annotations = meta !== null && meta !== undefined && Object.hasOwn(meta, "annotations") ? (meta.annotations ?? {}) : {};
  return Object.fromEntries(Object.entries(annotations).map(([key, value]) => [key, value ?? ""]));
}

/** The fields of {@link VMSpec} in Go's order (vmspec.go), which reads better than ours. */
const GO_ORDER = [
  "vmName",
  "image",
  "mode",
  "os",
  "storage",
  "network",
  "snapshotPolicy",
  "forkFrom",
  "managed",
  "forcePull",
  "noDirectIO",
  "connType",
  "backend",
  "probePort",
] as const satisfies readonly (keyof VMSpec)[];

function inGoOrder(spec: VMSpec): VMSpec {
  return Object.fromEntries(GO_ORDER.map((field) => [field, spec[field]])) as unknown as VMSpec;
}

/**
 * Reads an object's cocoon annotations with the contract's readers (`parseVMSpec`,
 * `parseVMRuntime`, `readLifecycleStatus`, ... on a Pod; `readHibernatedOnNode` on a CocoonSet),
 * exactly as the Go operator and virtual kubelet see them, and notes the values they silently read as zero
 * (`"True"`, `"59OO"`) and cocoon-like keys that are not in the contract; what each key holds
 * comes from the contract's table (`ANNOTATION_KINDS`). Other kinds are skipped, saying so. An
 * object with a non-string annotation gets errors and no view: the API server would reject it.
 */
export function readAnnotationsView(value: unknown): AnnotationsReading {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { notes: [], errors: [{ path: [], message: `expected a Kubernetes object (a mapping), got ${describeValue(value)}` }] };
  }
  const kind = Object.hasOwn(value, "kind") ? (value as { kind: unknown }).kind : undefined;
  const metadata = Object.hasOwn(value, "metadata") ? (value as { metadata: unknown }).metadata : undefined;
  const errors = annotationErrors(metadata);
  if (errors.length > 0) return { notes: [], errors };
  const obj = { metadata: { annotations: stringAnnotations(metadata) } };
  const notes = notesOn(obj.metadata.annotations);
  if (kind === KIND_COCOONSET) return { view: { hibernatedOnNode: readHibernatedOnNode(obj) }, notes, errors: [] };
  if (kind !== "Pod") return { skipped: NOT_A_POD, notes: [], errors: [] };
  const view: PodAnnotationsView = {
    vmSpec: inGoOrder(parseVMSpec(obj)),
    vmRuntime: parseVMRuntime(obj),
    lifecycleStatus: readLifecycleStatus(obj),
    hibernateState: readHibernateState(obj),
    restoreFromHibernate: readRestoreFromHibernate(obj),
    keepSnapshotOnDelete: readKeepSnapshotOnDelete(obj),
    cocoonSetGeneration: readCocoonSetGeneration(obj),
  };
  return { view, notes, errors: [] };
}

/**
 * Runs `cocoon-common annotations [--output text|json] FILE|DIR... | -`: prints the typed view of
 * each object's cocoon annotations and resolves to the exit status: 1 when an object has an
 * annotation that is not a string, 2 when a file could not be read (the others are still shown), else 0.
 *
 * @param parsed - The command's arguments, `--help` already handled.
 * @throws `CliError` for bad arguments (exit status 2).
 */
export async function annotationsCommand(parsed: ParsedArgs, io: CliIO): Promise<number> {
  checkFileOperands("annotations", parsed);
  const format = outputFormat(parsed);
  const { manifests, failures } = await loadInputs(io, parsed.positionals);
  const readings = manifests.map((manifest) => {
    const reading = readAnnotationsView(manifest.value);
    const errors = reading.errors.map(({ path, message }) => findingAt(manifest, path, message));
    return { manifest, ...reading, errors };
  });

  if (format === "json") {
    const results = readings.map(({ manifest, view, skipped, notes, errors }) => ({
      ...sourceOf(manifest),
      line: manifest.line,
      ...identityOf(manifest.value),
      annotations: view ?? null,
      ...(skipped === undefined ? {} : { skipped: true, reason: skipped }),
      notes,
      errors,
    }));
    io.stdout(`${toJSON(results)}\n`);
  } else {
    const docs = readings.flatMap(({ manifest, view, skipped, notes }) => {
      const head = `# ${manifest.file}:${manifest.line}: ${describeManifest(manifest)}`;
      if (skipped !== undefined) return [`${head}: skipped (${skipped})\n`];
      if (view === undefined) return [];
      return [`${head}\n${toYAMLStream([view])}${notes.map((note) => `# note: ${note}\n`).join("")}`];
    });
    if (docs.length > 0) io.stdout(docs.join("---\n"));
    for (const { manifest, errors } of readings) {
      for (const error of errors) io.stderr(`${formatFinding(manifest, error)}\n`);
    }
  }
  printErrors(io, "annotations", failures);
  if (failures.length > 0) return 2;
  return readings.some((r) => r.errors.length > 0) ? 1 : 0;
}
