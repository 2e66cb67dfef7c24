import type { Int64 } from "../generation.js";
import type { AgentSpecLike, ToolboxSpecLike } from "../from-spec.js";
import type { BuiltPod } from "../../apis/v1/built-pod-schema.js";

/** A container's resources as a CocoonSet holds them: quantities as strings or JSON integers. */
export interface ResourcesLike {
  limits?: Readonly<Record<string, string | number | bigint>> | undefined;
  requests?: Readonly<Record<string, string | number | bigint>> | undefined;
  claims?: readonly { name: string; request?: string | undefined }[] | undefined;
}

/** One `envFrom` entry (`corev1.EnvFromSource`). */
export interface EnvFromLike {
  prefix?: string | undefined;
  configMapRef?: { name?: string | undefined; optional?: boolean | undefined } | undefined;
  secretRef?: { name?: string | undefined; optional?: boolean | undefined } | undefined;
}

/** The toolbox fields the builders read (`spec.toolboxes[i]` of a parsed CocoonSet fits). */
export interface ToolboxLike extends ToolboxSpecLike {
  name: string;
  staticIP?: string | undefined;
  staticVMID?: string | undefined;
  vncPort?: number | undefined;
  resources?: ResourcesLike | undefined;
}

/**
 * The CocoonSet fields the pod builders and drift checks read. A CocoonSet parsed by
 * `CocoonSetSchema` fits, and so does plain JSON. `generation` is an {@link Int64}, so a
 * generation past 2^53 can be passed exactly as a `bigint`.
 *
 * @example
 * ```ts
 * const set: CocoonSetLike = { metadata: { name: "demo", namespace: "prod", uid: "u-1", generation: 3 }, spec: { agent: { image: "ubuntu:24.04" } } };
 * buildMainPod(set).metadata.annotations["cocoonset.cocoonstack.io/generation"]; // => "3"
 * ```
 */
export interface CocoonSetLike {
  metadata?:
    | {
        name?: string | undefined;
        namespace?: string | undefined;
        uid?: string | undefined;
        generation?: Int64 | undefined;
        annotations?: Record<string, string> | undefined;
      }
    | undefined;
  /** An absent spec reads as Go's zero spec (an agent with no image). */
  spec?: CocoonSetSpecLike | undefined;
}

/** The CocoonSet spec fields the pod builders and drift checks read. */
export interface CocoonSetSpecLike {
  snapshotPolicy?: string | undefined;
  nodePool?: string | undefined;
  snapshotCompatibilityClass?: string | undefined;
  nodeName?: string | undefined;
  agent: AgentSpecLike & {
    resources?: ResourcesLike | undefined;
    envFrom?: readonly EnvFromLike[] | undefined;
    serviceAccountName?: string | undefined;
  };
  toolboxes?: readonly ToolboxLike[] | undefined;
}

/** Resource requirements on a built pod: canonical quantity text, empty maps left out. */
export type PodResources = CocoonPod["spec"]["containers"][0]["resources"];

/** An `envFrom` entry on a built pod, with Go's empty fields left out. */
export type PodEnvFrom = NonNullable<CocoonPod["spec"]["containers"][0]["envFrom"]>[number];

/** A toleration on a built pod. */
export type PodToleration = CocoonPod["spec"]["tolerations"][number];

/**
 * A pod as the operator builds it, field for field what Go's builders return (`corev1.Pod`),
 * with the fields Go would leave out (empty strings, maps and lists) absent. Assignable to
 * client-node's `V1Pod`; write it as Go does with {@link marshalPodGoJSON}. It is the output of
 * the one definition of a built pod, the zod schema its Go table is generated from; ./meta loads
 * no zod, only the type checker reads it.
 *
 * @example
 * ```ts
 * const pod: CocoonPod = buildMainPod(set);
 * await clients.core.createNamespacedPod({ namespace: pod.metadata.namespace ?? "", body: pod });
 * ```
 */
export type CocoonPod = BuiltPod;
