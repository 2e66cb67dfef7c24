/**
 * The operator's side of the demo: the CocoonSet reads and writes of the operator and the user,
 * through the typed client `clients.cocoonSets` (every result parsed by the schema: no cast). The
 * pods come from the package's builders (`buildMainPod`, `buildWakePod`), as cocoon-operator builds them.
 *
 * @module
 */
import { API_VERSION, Kind, vmNameForDeployment, type CocoonSet, type CocoonSetInput, type CocoonSetPhase } from "../src/index.js";
import type { CocoonClients } from "../src/k8s/index.js";

/** Creates a CocoonSet; resolves to the server's copy, typed and defaulted, or rejects with the server's verdict. */
export function createCocoonSet(clients: CocoonClients, namespace: string, name: string, spec: CocoonSetInput["spec"]): Promise<CocoonSet> {
  return clients.cocoonSets.create({ apiVersion: API_VERSION, kind: Kind.CocoonSet, metadata: { name, namespace }, spec });
}

/** Reads a CocoonSet; the typed client parses it with the zod schema, so the rest of the code is typed. */
export function getCocoonSet(clients: CocoonClients, namespace: string, name: string): Promise<CocoonSet> {
  return clients.cocoonSets.get({ namespace, name });
}

/** Sets `spec.suspend`, as a user does (`kubectl patch`); the server bumps the generation. */
export function setSuspend(clients: CocoonClients, set: CocoonSet, suspend: boolean): Promise<CocoonSet> {
  return clients.cocoonSets.patch(set, (copy) => {
    if (copy.spec) copy.spec.suspend = suspend;
  });
}

/** Sets `status.phase` through the status subresource, as the operator does. */
export function setPhase(clients: CocoonClients, set: CocoonSet, phase: CocoonSetPhase): Promise<CocoonSet> {
  return clients.cocoonSets.patchStatus(set, (copy) => {
    copy.status = { ...copy.status, phase };
  });
}

/** Returns the main agent's VM name, `vk-<namespace>-<set>-0`. */
export function mainVMName(set: CocoonSet): string {
  return vmNameForDeployment(set.metadata.namespace ?? "", set.metadata.name ?? "", 0);
}
