/**
 * The end of a wake: once the woken main pod runs (the virtual kubelet reports it ready), the set's
 * hibernated-on-node hint has served its purpose and the `<vm>:hibernate` snapshot is spent, so
 * both are cleared; a later suspension writes new ones. The wake pod itself (restore flag,
 * weight-100 preference for the hinted node) is built in `agent-pods.ts` by `buildWakePod`.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchHibernatedOnNode } from "@cocoonstack/cocoon-common/k8s";
import {
  LifecycleState,
  SnapshotTag,
  buildMainPod,
  parseVMSpec,
  readHibernatedOnNode,
  readLifecycleState,
  readRestoreFromHibernate,
} from "@cocoonstack/cocoon-common/meta";
import type { CocoonSet } from "@cocoonstack/cocoon-common/apis/v1";
import type { ReconcileContext } from "./reconcile.js";

/** Clears the hint and the spent snapshot once the woken main pod is ready. */
export async function finishWake({ clients, registry, log }: ReconcileContext, set: CocoonSet, pods: Map<string, V1Pod>): Promise<void> {
  const hint = readHibernatedOnNode(set);
  const main = pods.get(buildMainPod(set).metadata.name);
  if (hint === "" || !main || !readRestoreFromHibernate(main) || readLifecycleState(main) !== LifecycleState.Ready) return;
  const vmName = parseVMSpec(main).vmName;
  await registry.deleteManifest(vmName, SnapshotTag.Hibernate);
  await patchHibernatedOnNode(clients, set, null);
  log(`woke ${vmName} on ${main.spec?.nodeName ?? ""} (hinted ${hint}); cleared the hint and ${vmName}:${SnapshotTag.Hibernate}`);
}
