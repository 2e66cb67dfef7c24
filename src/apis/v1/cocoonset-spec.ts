import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { DEFAULT_NODE_POOL } from "../../internal/crd-markers.js";
import { AgentModeSchema, HibernatePolicySchema, SnapshotPolicySchema, ToolboxModeSchema } from "./enum-schemas.js";
import { EnumDefault, HibernatePolicy } from "./enums.js";
import type { AgentMode, SnapshotPolicy, ToolboxMode } from "./enums.js";
import { EnvFromSourceSchema } from "./env-from.js";
import type { EnvFromSource } from "./env-from.js";
import {
  RELEASE_REQUIRES_MAIN_ONLY_MESSAGE,
  RELEASE_REQUIRES_MAIN_ONLY_RULE,
  SNAPSHOT_CLASS_IMMUTABLE_RULE,
} from "./internal/cel-rules.js";
import { isDNS1123Label, linearPattern } from "../../internal/linear-patterns.js";
import { gatedRules } from "./internal/rule-gate.js";
import { int32 } from "./internal/schema-helpers.js";
import { vmOptionsShape } from "./vm-options.js";
import type { VMOptions } from "./vm-options.js";
import { addIssue } from "./internal/add-issue.js";
import { goAlways } from "./go-tags.js";

/**
 * Validates the agent VMs of a CocoonSet (Go `AgentSpec`, with `VMOptions` inlined). Defaults:
 * `replicas=0` (sub-agents; the main agent always exists), `mode=clone`, `os=linux`,
 * `backend=cloud-hypervisor`. `image` is required and non-empty.
 */
export const AgentSpecSchema = withSharedFailureShape(
  z
    .object({
      replicas: int32().min(0).default(0).describe("Replicas is the number of sub-agents; the main agent is always created in addition."),
      image: goAlways(z.string()).min(1),
      mode: AgentModeSchema.default(EnumDefault.AgentMode),
      ...vmOptionsShape,
      envFrom: z.array(EnvFromSourceSchema).optional(),
      serviceAccountName: z.string().optional(),
    })
    .describe("AgentSpec defines the configuration for agent VMs in a CocoonSet."),
);
/** An agent spec as stored, defaults applied: the configuration for agent VMs in a CocoonSet. */
export interface AgentSpec extends VMOptions {
  /** Replicas is the number of sub-agents; the main agent is always created in addition. `0` by default. */
  replicas: number;
  /** Image the agent VMs boot from (required, non-empty). */
  image: string;
  /** AgentMode defines the mode of an agent VM; `clone` by default. */
  mode: AgentMode;
  /** Sources of environment variables for the agent VMs. */
  envFrom?: EnvFromSource[] | undefined;
  /** Service account the agent pods run as. */
  serviceAccountName?: string | undefined;
}
/** An agent spec as written; defaulted fields are optional. */
export type AgentSpecInput = z.input<typeof AgentSpecSchema>;

/**
 * Validates one toolbox VM of a CocoonSet (Go `ToolboxSpec`, with `VMOptions` inlined). `name` is
 * a required DNS-1123 label; defaults `mode=run`, `os=linux`, `backend=cloud-hypervisor`.
 */
export const ToolboxSpecSchema = withSharedFailureShape(
  z
    .object({
      name: goAlways(z.string()).min(1).regex(linearPattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", isDNS1123Label)),
      image: z.string().optional(),
      mode: ToolboxModeSchema.default(EnumDefault.ToolboxMode),
      staticIP: z.string().optional(),
      staticVMID: z.string().optional(),
      vncPort: int32().min(0).max(65535).optional(),
      ...vmOptionsShape,
    })
    .describe("ToolboxSpec defines the configuration for a toolbox VM in a CocoonSet."),
);
/** A toolbox spec as stored, defaults applied: the configuration for a toolbox VM in a CocoonSet. */
export interface ToolboxSpec extends VMOptions {
  /** Name of the toolbox, a DNS-1123 label (required). */
  name: string;
  /** Image the toolbox VM boots from. */
  image?: string | undefined;
  /** ToolboxMode defines the mode of a toolbox VM; `run` by default. */
  mode: ToolboxMode;
  /** IP address of a `static` toolbox's existing VM. */
  staticIP?: string | undefined;
  /** VM ID of a `static` toolbox's existing VM. */
  staticVMID?: string | undefined;
  /** VNC port of a `static` toolbox's existing VM (0..65535). */
  vncPort?: number | undefined;
}
/** A toolbox spec as written; defaulted fields are optional. */
export type ToolboxSpecInput = z.input<typeof ToolboxSpecSchema>;

/** The spec as the create/update rule reads it (defaults applied). */
interface ReleaseRuleView {
  hibernatePolicy: HibernatePolicy;
  agent: { replicas: number };
  toolboxes?: readonly unknown[] | undefined;
}

/**
 * The create/update CEL rule of the spec, on the defaulted value: a `release` policy needs
 * `agent.replicas=0` and no toolboxes. Adds the rule's message at `path` (the spec's path).
 *
 * @internal
 */
export function checkReleaseRule(spec: ReleaseRuleView, ctx: z.RefinementCtx, path: readonly PropertyKey[]): void {
  if (spec.hibernatePolicy !== HibernatePolicy.Release) return;
  if (spec.agent.replicas === 0 && (spec.toolboxes === undefined || spec.toolboxes.length === 0)) return;
  addIssue(ctx, { code: "custom", path: [...path], message: RELEASE_REQUIRES_MAIN_ONLY_MESSAGE, input: spec });
}

/**
 * The fields of a CocoonSet spec, carrying the CRD's CEL rules as metadata but not checking them:
 * {@link CocoonSetSpecSchema} checks them on a spec alone, `CocoonSetSchema` on the whole object
 * (the apiserver skips them when the object has a blocking error anywhere).
 *
 * @internal
 */
export const cocoonSetSpecFields = z
  .object({
    suspend: z.boolean().optional(),
    snapshotPolicy: SnapshotPolicySchema.default(EnumDefault.SnapshotPolicy),
    hibernatePolicy: HibernatePolicySchema.default(EnumDefault.HibernatePolicy),
    nodePool: z.string().default(DEFAULT_NODE_POOL),
    snapshotCompatibilityClass: z
      .string()
      .max(63)
      .regex(/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/)
      .optional()
      .describe(
        "SnapshotCompatibilityClass selects nodes that expose a guest-visible CPU ABI compatible with this " +
          "set's memory snapshots. It is independent from NodePool so multiple workload pools can share one snapshot class.",
      ),
    nodeName: z
      .string()
      .optional()
      .describe(
        "NodeName pins the VM to a node (cross-node migrate). Empty = let the scheduler place it within " +
          "NodePool and leave it alone; a value adds a hostname nodeAffinity so the pod lands there or stays Pending if it won't fit.",
      ),
    agent: goAlways(AgentSpecSchema),
    toolboxes: z.array(ToolboxSpecSchema).optional(),
  })
  .meta({ "x-kubernetes-validations": [RELEASE_REQUIRES_MAIN_ONLY_RULE, SNAPSHOT_CLASS_IMMUTABLE_RULE] })
  .describe("CocoonSetSpec defines the desired state of a CocoonSet.");

/**
 * Validates the desired state of a CocoonSet (Go `CocoonSetSpec`). Defaults
 * `snapshotPolicy=always`, `hibernatePolicy=retain`, `nodePool=default`; `snapshotCompatibilityClass`
 * is a label value (≤ 63 characters, may be empty). Enforces the CRD's create-time rule
 * `hibernatePolicy=release requires agent.replicas=0 and no toolboxes` after defaulting, when the
 * apiserver would: not when the spec has a blocking error (a wrong type, a missing required field,
 * a bad enum value, a string over its maximum length), which gets the apiserver's root issue
 * `some validation rules were not checked ...` instead. The transition rule on
 * `snapshotCompatibilityClass` is {@link validateCocoonSetUpdate}'s job.
 *
 * @example
 * ```ts
 * const spec = CocoonSetSpecSchema.parse({ agent: { image: "ghcr.io/acme/agent:1" } });
 * spec.snapshotPolicy; // => "always"
 * spec.agent.mode; // => "clone"
 * ```
 */
export const CocoonSetSpecSchema = withSharedFailureShape(
  cocoonSetSpecFields.superRefine(...gatedRules<z.output<typeof cocoonSetSpecFields>>((spec, ctx) => checkReleaseRule(spec, ctx, []))),
);
/** A CocoonSet spec as stored, defaults applied: the desired state of a CocoonSet. */
export interface CocoonSetSpec {
  /** Suspend asks for every VM of the set to be hibernated. */
  suspend?: boolean | undefined;
  /** SnapshotPolicy defines when VM snapshots are taken; `always` by default. */
  snapshotPolicy: SnapshotPolicy;
  /** HibernatePolicy keeps (retain) or frees (release) the VM's scheduling seat while suspended; `retain` by default. */
  hibernatePolicy: HibernatePolicy;
  /** Node pool the VMs are scheduled on; `default` by default. */
  nodePool: string;
  /** SnapshotCompatibilityClass selects nodes that expose a guest-visible CPU ABI compatible with this set's memory snapshots. */
  snapshotCompatibilityClass?: string | undefined;
  /** NodeName pins the VM to a node (cross-node migrate); empty lets the scheduler place it within NodePool. */
  nodeName?: string | undefined;
  /** AgentSpec defines the configuration for agent VMs in a CocoonSet. */
  agent: AgentSpec;
  /** ToolboxSpec defines the configuration for a toolbox VM in a CocoonSet, one entry per toolbox. */
  toolboxes?: ToolboxSpec[] | undefined;
}
/** A CocoonSet spec as written; defaulted fields are optional. */
export type CocoonSetSpecInput = z.input<typeof CocoonSetSpecSchema>;
