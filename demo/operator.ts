/**
 * The operator's side of the demo: the main pod as cocoon-operator builds it
 * (cocoonset/pods.go), and the CocoonSet reads and writes of the operator and the user.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import {
  API_VERSION,
  CocoonSetSchema,
  GROUP,
  KIND_COCOONSET,
  Kind,
  Label,
  Plural,
  Role,
  TOLERATION_KEY,
  VERSION,
  applyVMSpec,
  fromAgentSpec,
  stampCocoonSetGeneration,
  vmNameForDeployment,
  type CocoonSet,
  type CocoonSetInput,
  type CocoonSetPhase,
} from "../src/index.js";
import { patch, patchStatus, type CocoonClients } from "../src/k8s/index.js";

/** Creates a CocoonSet; resolves to the server's copy, or rejects with the server's verdict. */
export async function createCocoonSet(
  clients: CocoonClients,
  namespace: string,
  name: string,
  spec: CocoonSetInput["spec"],
): Promise<unknown> {
  const body = { apiVersion: API_VERSION, kind: Kind.CocoonSet, metadata: { name, namespace }, spec };
  return clients.customObjects.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: Plural.CocoonSet, body });
}

/** Reads a CocoonSet and parses it with the zod schema, so the rest of the code is typed. */
export async function getCocoonSet(clients: CocoonClients, namespace: string, name: string): Promise<CocoonSet> {
  const raw: unknown = await clients.customObjects.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace,
    plural: Plural.CocoonSet,
    name,
  });
  return CocoonSetSchema.parse(raw);
}

/** Sets `spec.suspend`, as a user does (`kubectl patch`); the server bumps the generation. */
export function setSuspend(clients: CocoonClients, set: CocoonSet, suspend: boolean): Promise<CocoonSet> {
  return patch(clients, set, (copy) => {
    if (copy.spec) copy.spec.suspend = suspend;
  });
}

/** Sets `status.phase` through the status subresource, as the operator does. */
export function setPhase(clients: CocoonClients, set: CocoonSet, phase: CocoonSetPhase): Promise<CocoonSet> {
  return patchStatus(clients, set, (copy) => {
    copy.status = { ...copy.status, phase };
  });
}

/** Returns the main agent's VM name, `vk-<namespace>-<set>-0`. */
export function mainVMName(set: CocoonSet): string {
  return vmNameForDeployment(set.metadata.namespace ?? "", set.metadata.name ?? "", 0);
}

/**
 * Builds the main (slot 0) pod of `set` the way the operator does: name `<set>-0`, the set's
 * labels, a controller owner reference, the generation stamp and the VM spec annotations.
 */
export function buildMainPod(set: CocoonSet): V1Pod {
  const name = set.metadata.name ?? "";
  if (!set.spec || !set.metadata.uid || set.metadata.generation === undefined)
    throw new Error(`CocoonSet ${name} has no spec, uid or generation`);
  const pod: V1Pod = {
    metadata: {
      name: `${name}-0`,
      namespace: set.metadata.namespace ?? "",
      labels: { [Label.CocoonSet]: name, [Label.Role]: Role.Main, [Label.Slot]: "0", "app.kubernetes.io/name": name },
      ownerReferences: [
        { apiVersion: API_VERSION, kind: KIND_COCOONSET, name, uid: set.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      terminationGracePeriodSeconds: 1,
      tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }],
      nodeSelector: { [Label.NodePool]: set.spec.nodePool },
      containers: [{ name: "agent", image: "ghcr.io/cocoonstack/placeholder:latest" }],
    },
  };
  stampCocoonSetGeneration(pod, set.metadata.generation);
  applyVMSpec(pod, fromAgentSpec(set.spec.agent, mainVMName(set), set.spec.snapshotPolicy, ""));
  return pod;
}
