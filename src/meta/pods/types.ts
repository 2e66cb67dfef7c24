import type { Int64 } from "../generation.js";
import type { Loose } from "../loose.js";
import type { BuiltPod } from "../../apis/v1/built-pod-schema.js";
import type { CocoonSetInput } from "../../apis/v1/cocoonset-types.js";
import type { CocoonSetSpecInput, ToolboxSpecInput } from "../../apis/v1/cocoonset-spec.js";
import type { EnvFromSourceInput } from "../../apis/v1/env-from.js";
import type { ObjectMetaInput } from "../../apis/v1/object-meta.js";
import type { ResourceRequirementsInput } from "../../apis/v1/resources.js";

/**
 * A container's resources as a CocoonSet holds them: quantities as strings, JSON integers or
 * `bigint`s. {@link Loose} of the schema's input, so a field added to the schema appears here.
 *
 * @example
 * ```ts
 * const resources: ResourcesLike = { limits: { cpu: "2", memory: 1n << 30n }, requests: { cpu: 1 } };
 * ```
 */
export type ResourcesLike = Loose<ResourceRequirementsInput>;

/**
 * One `envFrom` entry (`corev1.EnvFromSource`), {@link Loose} of the schema's input.
 *
 * @example
 * ```ts
 * const envFrom: EnvFromLike = { prefix: "APP_", configMapRef: { name: "app-env" } };
 * ```
 */
export type EnvFromLike = Loose<EnvFromSourceInput>;

/**
 * A toolbox as the builders read it (`spec.toolboxes[i]` of a parsed CocoonSet fits):
 * {@link Loose} of the schema's input, so `name` is required and a mode may be any string.
 *
 * @example
 * ```ts
 * const toolbox: ToolboxLike = { name: "browser", image: "chrome:1", mode: "static", staticIP: "10.0.0.9" };
 * ```
 */
export type ToolboxLike = Loose<ToolboxSpecInput>;

/**
 * The CocoonSet fields the pod builders and drift checks read. A CocoonSet parsed by
 * `CocoonSetSchema` fits, and so does plain JSON. It is {@link Loose} of the schema's input with
 * every top-level field optional and `status` left out (the builders never read it, and a live
 * object's status may be any shape). `generation` is an {@link Int64}, so a generation past 2^53
 * can be passed exactly as a `bigint`.
 *
 * @example
 * ```ts
 * const set: CocoonSetLike = { metadata: { name: "demo", namespace: "prod", uid: "u-1", generation: 3 }, spec: { agent: { image: "ubuntu:24.04" } } };
 * buildMainPod(set).metadata.annotations["cocoonset.cocoonstack.io/generation"]; // => "3"
 * ```
 */
export type CocoonSetLike = {
  [K in Exclude<keyof CocoonSetInput, "status" | "metadata">]?: Loose<CocoonSetInput[K]> | undefined;
} & {
  metadata?:
    | ({ [K in keyof ObjectMetaInput as K extends "generation" ? never : K]: Loose<ObjectMetaInput[K]> } & {
        generation?: Int64 | undefined;
      })
    | undefined;
};

/**
 * The CocoonSet spec fields the pod builders and drift checks read: {@link Loose} of the schema's
 * input, so `agent` (with its `image`) is required and an absent `spec` reads as Go's zero spec.
 *
 * @example
 * ```ts
 * const spec: CocoonSetSpecLike = { snapshotPolicy: "main-only", agent: { image: "ubuntu:24.04", mode: "run" } };
 * ```
 */
export type CocoonSetSpecLike = Loose<CocoonSetSpecInput>;

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
