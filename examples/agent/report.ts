/**
 * What the agent writes back to the pod: the lifecycle status (at the set generation stamped on the
 * pod, so the operator knows which spec it acted on) and the pod status of its VM.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchAnnotations, writePodStatus, type CocoonClients } from "@cocoonstack/cocoon-common/k8s";
import {
  lifecycleStatusAnnotations,
  podStatusForVM,
  readCocoonSetGeneration,
  type LifecycleState,
  type VMObservation,
} from "@cocoonstack/cocoon-common/meta";

/** Reports `state` at the pod's stamped generation, then the pod status of `vm`; resolves to the pod as stored. */
export async function reportVM(clients: CocoonClients, pod: V1Pod, state: LifecycleState, vm: VMObservation): Promise<V1Pod> {
  const lifecycle = { state, observedGeneration: readCocoonSetGeneration(pod), message: "" };
  const annotated = await patchAnnotations(clients, pod, lifecycleStatusAnnotations(lifecycle));
  return writePodStatus(clients, annotated, podStatusForVM(annotated, vm, { now: new Date() }));
}
