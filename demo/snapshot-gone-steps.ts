/**
 * Steps 6 and 7 of the demo: the registry's answer decides. A wake whose snapshot is gone boots
 * fresh; a release whose registry is down does not happen (the probe fails closed).
 *
 * @module
 */
import {
  Annotation,
  SnapshotTag,
  markRestoreFromHibernate,
  parseVMSpec,
  readKeepSnapshotOnDelete,
  readRestoreFromHibernate,
  buildMainPod,
} from "../src/index.js";
import { isRegistryError } from "../src/oci/index.js";
import { getCocoonSet } from "./operator.js";
import { annotations, check, show, step } from "./report.js";
import { MAIN, SET, type Demo } from "./scenario.js";
import { describeProbe, probe } from "./snapshot-registry.js";

/** Step 6: the wake decision once `:hibernate` was deleted (step 5 cleared it): absent → fresh boot. */
export async function wakeWithoutSnapshot({ clients, namespace, registry }: Demo): Promise<void> {
  step(6, "a wake whose :hibernate snapshot was deleted: the probe says absent, so the VM boots fresh");
  const body = buildMainPod(await getCocoonSet(clients, namespace, SET));
  const vmName = parseVMSpec(body).vmName;
  const answer = await probe(registry, vmName);
  if (answer.present === true) markRestoreFromHibernate(body);
  show("operator", `hasHibernateSnapshot(${vmName}): ${describeProbe(answer)} -> ${answer.present === true ? "restore" : "fresh boot"}`);
  show("operator", `the pod it would create: ${annotations(body, Annotation.RestoreFromHibernate)}`);
  check(6, "absent is a clean answer (1 HEAD, 404), and the new pod is not marked restore-from-hibernate", {
    "the probe answered absent": answer.present === false,
    "one registry request, no token request": answer.requests === 1 && answer.tokenRequests === 0,
    "no restore-from-hibernate on the pod": !readRestoreFromHibernate(body),
  });
}

/** Step 7: the registry is stopped; the release gate's probe fails closed and the seat stays taken. */
export async function releaseWithRegistryDown({ clients, namespace, registry, server }: Demo): Promise<void> {
  step(7, "the registry goes down before a release: the probe fails closed and the seat is not released");
  await server.stop();
  show("server", `registry at ${server.host} stopped`);
  const pod = await clients.core.readNamespacedPod({ name: MAIN, namespace });
  const vmName = parseVMSpec(pod).vmName;
  const answer = await probe(registry, vmName);
  const error = answer.present instanceof Error ? answer.present : undefined;
  show("operator", `hasHibernateSnapshot(${vmName}): ${describeProbe(answer)}`, error ? `-> ${error.message}` : "");
  if (answer.present === true) throw new Error("a stopped registry answered");
  show("operator", `the seat is kept: ${MAIN} is not flagged and not deleted; the release retries later`);
  const still = await clients.core.readNamespacedPod({ name: MAIN, namespace });
  check(7, `the probe failed with ERR_REGISTRY_TRANSPORT, never "absent", and ${MAIN} still holds its seat`, {
    "the probe is an error, not false": error !== undefined,
    "the error is typed ERR_REGISTRY_TRANSPORT": isRegistryError(error, "ERR_REGISTRY_TRANSPORT"),
    [`${MAIN} still exists and is not being deleted`]: still.metadata?.deletionTimestamp === undefined,
    [`${MAIN} is not flagged keep-snapshot-on-delete`]: !readKeepSnapshotOnDelete(still),
    [`the probe asked for ${vmName}:${SnapshotTag.Hibernate}`]: error?.message.includes(`${vmName}:${SnapshotTag.Hibernate}`) === true,
  });
}
