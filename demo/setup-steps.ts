/**
 * Steps 1 and 2 of the demo: the CRDs and a release-policy CocoonSet, then its main pod, booted.
 *
 * @module
 */
import {
  API_VERSION,
  Annotation,
  CocoonSetSchema,
  GROUP,
  HibernatePolicy,
  Kind,
  LifecycleState,
  Plural,
  buildMainPod,
  fromAgentSpec,
  isContainerRunning,
  isOwnedByCocoonSet,
  parseVMRuntime,
  parseVMSpec,
  readLifecycleStatus,
} from "../src/index.js";
import { installCRDs, isInvalid, statusCode, statusMessage } from "../src/k8s/index.js";
import { reportVMReady, scheduled } from "./kubelet.js";
import { createCocoonSet, getCocoonSet, mainVMName } from "./operator.js";
import { annotations, check, sameJSON, show, step } from "./report.js";
import { MAIN, SET, generation, reportedAt, type Demo } from "./scenario.js";

/** Step 1: the CRDs, a release-policy set, and the CEL rule refusing sub-agents on the server and in zod. */
export async function installAndCreate({ clients, namespace }: Demo): Promise<void> {
  step(1, "install the CRDs; create a CocoonSet with hibernatePolicy: release");
  await installCRDs(clients);
  show("operator", `installCRDs: ${Plural.CocoonSet}.${GROUP} and ${Plural.CocoonHibernation}.${GROUP} established`);
  const spec = { hibernatePolicy: HibernatePolicy.Release, agent: { image: "ghcr.io/cocoonstack/agent:1.4", storage: "20Gi" } };
  const stored = await createCocoonSet(clients, namespace, SET, spec);
  const s = stored.spec;
  show(
    "server",
    `stored ${namespace}/${SET} generation=${generation(stored)}: hibernatePolicy=${s?.hibernatePolicy} agent.replicas=${s?.agent.replicas}`,
    `defaults: snapshotPolicy=${s?.snapshotPolicy} nodePool=${s?.nodePool} agent.mode=${s?.agent.mode} agent.os=${s?.agent.os}`,
  );
  const crowded = { ...spec, agent: { ...spec.agent, replicas: 2 } };
  const refused = await createCocoonSet(clients, namespace, "crowded", crowded).then(
    () => undefined,
    (err: unknown) => err,
  );
  show("server", `create ${namespace}/crowded (agent.replicas=2): ${statusCode(refused) ?? "accepted"}`, statusMessage(refused) ?? "");
  const offline = CocoonSetSchema.safeParse({
    apiVersion: API_VERSION,
    kind: Kind.CocoonSet,
    metadata: { name: "crowded" },
    spec: crowded,
  });
  const issue = offline.error?.issues[0];
  show("schema", "CocoonSetSchema.safeParse(crowded):", issue ? `${issue.path.join(".")}: ${issue.message}` : "accepted");
  const expected = CocoonSetSchema.parse({ apiVersion: API_VERSION, kind: Kind.CocoonSet, metadata: { name: SET }, spec });
  check(1, "the server stores the schema's defaults, and both refuse sub-agents with the CEL rule's message", {
    "the stored spec equals CocoonSetSchema.parse(spec).spec": sameJSON(stored.spec, expected.spec),
    "the server refuses crowded with 422 Invalid": isInvalid(refused),
    "the schema refuses crowded with the server's message": issue !== undefined && (statusMessage(refused) ?? "").includes(issue.message),
  });
}

/** Step 2: the operator creates the main pod; kube-scheduler places it on the one node; the virtual kubelet boots the VM. */
export async function createMainPod({ clients, namespace }: Demo): Promise<void> {
  step(2, "create the main pod the way the operator would; the virtual kubelet reports it ready");
  const set = await getCocoonSet(clients, namespace, SET);
  const spec = set.spec;
  if (!spec) throw new Error(`CocoonSet ${SET} has no spec`);
  let pod = await clients.core.createNamespacedPod({ namespace, body: buildMainPod(set) });
  show(
    "operator",
    `created ${namespace}/${MAIN} (role=main, owned by ${SET}): ${annotations(pod, Annotation.CocoonSetGeneration, Annotation.VMName)}`,
  );
  pod = await scheduled(clients, pod);
  show("scheduler", `kube-scheduler placed ${MAIN} on ${pod.spec?.nodeName}, the pool's only node`);
  const vm = parseVMSpec(pod);
  show("kubelet", `parseVMSpec: boot ${vm.vmName} (image ${vm.image}, mode ${vm.mode}, os ${vm.os}, storage ${vm.storage})`);
  pod = await reportVMReady(clients, pod, { vmID: "a1b2c3", ip: "10.88.0.7", vncPort: 0 });
  show(
    "kubelet",
    annotations(pod, Annotation.VMID, Annotation.IP),
    annotations(pod, Annotation.LifecycleState, Annotation.LifecycleObservedGeneration),
  );
  check(2, `the pod carries the operator's VM spec and the virtual kubelet's runtime, ready at generation ${generation(set)}`, {
    "parseVMSpec(pod) equals fromAgentSpec(set.spec.agent, ...) (no drift)": sameJSON(
      vm,
      fromAgentSpec(spec.agent, mainVMName(set), spec.snapshotPolicy, ""),
    ),
    "the pod is owned by the CocoonSet": isOwnedByCocoonSet(pod.metadata?.ownerReferences),
    "lifecycle ready at the set's generation": reportedAt(readLifecycleStatus(pod), LifecycleState.Ready, set),
    "the VM is live (VM id and a running container)": parseVMRuntime(pod).vmID !== "" && isContainerRunning(pod),
  });
}
