// The typed annotation contracts across the language line, against the cocoon-common v0.3.0 meta
// functions re-declared in the oracle. TS writes → Go applies the patch, reads the struct
// (ParseVMSpec, ...) and re-encodes it → the same bytes; Go writes → TS reads → the same object.
import { it } from "vitest";
import {
  type Annotated,
  type AnnotationDelta,
  type LifecycleStatus,
  type VMRuntime,
  type VMSpec,
  applyAnnotations,
  lifecycleStatusAnnotations,
  lifecycleStatusKey,
  parseVMRuntime,
  parseVMSpec,
  readCocoonSetGeneration,
  readHibernateState,
  readHibernatedOnNode,
  readKeepSnapshotOnDelete,
  readLifecycleStatus,
  readRestoreFromHibernate,
  vmRuntimeAnnotations,
  vmSpecAnnotations,
} from "../../src/meta/index.js";
import { annotationsMergePatchJSON } from "../../src/meta/annotations-patch-json.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { asGoHoldsIt, lifecycleStatus, podAnnotations, vmRuntime, vmSpec } from "./support/contracts.js";

const EMPTY_PATCH = '{"metadata":{"annotations":{}}}';

/** Go's round-trip answer: its own patch for the value, and what it read from ours. */
interface GoRoundTrip<T> {
  written: string;
  read?: T;
  reencoded?: string;
}

/** A fresh object carrying a patch's annotations, as the apiserver would apply it. */
function applied(patch: string): Annotated {
  const obj: Annotated = {};
  applyAnnotations(obj, (JSON.parse(patch) as { metadata: { annotations: AnnotationDelta } }).metadata.annotations);
  return obj;
}

/**
 * Checks one round trip. Ours: the patch we write, and what our reader makes of it (as Go holds
 * text). Go's must match byte for byte and value for value, and our reader must read Go's patch
 * back to the same value. An empty delta is refused by us and written as a no-op by Go.
 */
function checkRoundTrip<T, G>(value: T, delta: AnnotationDelta, go: GoRoundTrip<G>, read: (obj: Annotated) => G): void {
  if (Object.keys(delta).length === 0) {
    expectSame(value, { written: EMPTY_PATCH }, go);
    return;
  }
  const patch = annotationsMergePatchJSON(delta);
  expectSame(value, { written: patch, read: asGoHoldsIt(read(applied(patch))), reencoded: patch }, go);
  expectSame(value, read(applied(go.written)), go.read);
}

function patchOrNull(delta: AnnotationDelta): string | null {
  return Object.keys(delta).length === 0 ? null : annotationsMergePatchJSON(delta);
}

/** Our lifecycle status in the oracle's shape (the int64 as a decimal string). */
function lifecycleForGo(status: LifecycleStatus) {
  return { state: status.state, observedGeneration: status.observedGeneration.toString(), message: status.message };
}

describeConformance("meta contracts", (oracle) => {
  it(
    "round-trips VM specs through VMSpec.Apply / ParseVMSpec",
    async () => {
      await compareWithGo<VMSpec, GoRoundTrip<VMSpec>>(oracle(), {
        name: "VMSpec round trip",
        arbitrary: vmSpec,
        numRuns: 3_000,
        request: (spec) => ({ op: "vmSpec", args: { value: spec, patch: patchOrNull(vmSpecAnnotations(spec)) } }),
        check: (spec, go) => checkRoundTrip(spec, vmSpecAnnotations(spec), go, parseVMSpec),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it(
    "round-trips VM runtimes through VMRuntime.Apply / ParseVMRuntime",
    async () => {
      await compareWithGo<VMRuntime, GoRoundTrip<VMRuntime>>(oracle(), {
        name: "VMRuntime round trip",
        arbitrary: vmRuntime,
        numRuns: 3_000,
        request: (runtime) => ({ op: "vmRuntime", args: { value: runtime, patch: patchOrNull(vmRuntimeAnnotations(runtime)) } }),
        check: (runtime, go) => checkRoundTrip(runtime, vmRuntimeAnnotations(runtime), go, parseVMRuntime),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it(
    "round-trips lifecycle statuses through LifecycleStatus.Annotations / ReadLifecycleStatus",
    async () => {
      await compareWithGo<LifecycleStatus, GoRoundTrip<ReturnType<typeof lifecycleForGo>> & { key: string }>(oracle(), {
        name: "LifecycleStatus round trip",
        arbitrary: lifecycleStatus,
        numRuns: 3_000,
        request: (status) => ({
          op: "lifecycle",
          args: { value: lifecycleForGo(status), patch: annotationsMergePatchJSON(lifecycleStatusAnnotations(status)) },
        }),
        check: (status, { key, ...go }) => {
          const read = (obj: Annotated) => lifecycleForGo(readLifecycleStatus(obj));
          checkRoundTrip(status, lifecycleStatusAnnotations(status), go, read);
          expectSame(status, asGoHoldsIt(lifecycleStatusKey(status)), key);
        },
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it(
    "reads any pod annotations as every Go reader does",
    async () => {
      await compareWithGo<Record<string, string>, unknown>(oracle(), {
        name: "readers",
        arbitrary: podAnnotations,
        numRuns: 3_000,
        request: (annotations) => ({ op: "read", args: { annotations } }),
        check: (annotations, go) => {
          const pod = { metadata: { annotations } };
          const status = readLifecycleStatus(pod);
          expectSame(
            annotations,
            {
              vmSpec: parseVMSpec(pod),
              vmRuntime: parseVMRuntime(pod),
              lifecycle: lifecycleForGo(status),
              lifecycleKey: lifecycleStatusKey(status),
              cocoonSetGeneration: readCocoonSetGeneration(pod).toString(),
              hibernate: readHibernateState(pod),
              restoreFromHibernate: readRestoreFromHibernate(pod),
              keepSnapshotOnDelete: readKeepSnapshotOnDelete(pod),
              hibernatedOnNode: readHibernatedOnNode(pod),
            },
            go,
          );
        },
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
