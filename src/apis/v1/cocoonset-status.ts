import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { conditionList } from "./condition.js";
import type { Condition } from "./condition.js";
import { CocoonSetPhaseSchema, ConnTypeSchema } from "./enum-schemas.js";
import type { CocoonSetPhase, ConnType } from "./enums.js";
import { listMap } from "./internal/list-map.js";
import { int32, int64 } from "./internal/schema-helpers.js";
import { goAlways } from "./go-tags.js";

/** Validates the observed state of one agent VM (Go `AgentStatus`); `slot` and `role` are required. */
export const AgentStatusSchema = withSharedFailureShape(
  z
    .object({
      slot: goAlways(int32()),
      role: goAlways(z.string()),
      podName: z.string().optional(),
      vmName: z.string().optional(),
      vmID: z.string().optional(),
      ip: z.string().optional(),
      phase: z.string().optional(),
      forkedFrom: z.string().optional(),
    })
    .describe("AgentStatus represents the observed state of a single agent VM."),
);
/** An agent status as stored: the observed state of a single agent VM. */
export interface AgentStatus {
  /** Slot of the agent: 0 is the main agent, 1.. the sub-agents. */
  slot: number;
  /** Role of the agent (`main` or `sub-agent`). */
  role: string;
  /** Name of the agent's pod. */
  podName?: string | undefined;
  /** Name of the agent's VM. */
  vmName?: string | undefined;
  /** ID of the agent's VM on its node. */
  vmID?: string | undefined;
  /** IP address of the agent's VM. */
  ip?: string | undefined;
  /** Phase of the agent's pod. */
  phase?: string | undefined;
  /** Name of the VM this agent was forked from. */
  forkedFrom?: string | undefined;
}
/** An agent status as written. */
export type AgentStatusInput = z.input<typeof AgentStatusSchema>;

/**
 * Validates the observed state of one toolbox VM (Go `ToolboxStatus`); `name` is required and
 * `vncPort` has no bounds here (unlike the spec's).
 */
export const ToolboxStatusSchema = withSharedFailureShape(
  z
    .object({
      name: goAlways(z.string()),
      podName: z.string().optional(),
      vmName: z.string().optional(),
      vmID: z.string().optional(),
      ip: z.string().optional(),
      phase: z.string().optional(),
      connType: ConnTypeSchema.optional(),
      vncPort: int32().optional(),
    })
    .describe("ToolboxStatus represents the observed state of a single toolbox VM."),
);
/** A toolbox status as stored: the observed state of a single toolbox VM. */
export interface ToolboxStatus {
  /** Name of the toolbox, as in the spec. */
  name: string;
  /** Name of the toolbox's pod. */
  podName?: string | undefined;
  /** Name of the toolbox's VM. */
  vmName?: string | undefined;
  /** ID of the toolbox's VM on its node. */
  vmID?: string | undefined;
  /** IP address of the toolbox's VM. */
  ip?: string | undefined;
  /** Phase of the toolbox's pod. */
  phase?: string | undefined;
  /** ConnType is the connection protocol advertised for the VM. */
  connType?: ConnType | undefined;
  /** VNC port of the toolbox's VM. */
  vncPort?: number | undefined;
}
/** A toolbox status as written. */
export type ToolboxStatusInput = z.input<typeof ToolboxStatusSchema>;

/**
 * Validates the observed state of a CocoonSet (Go `CocoonSetStatus`). `agents`, `toolboxes` and
 * `conditions` are list-maps keyed by `slot`, `name` and `type`: duplicate keys are rejected. The
 * four counters are optional in the schema even though Go always writes them.
 */
export const CocoonSetStatusSchema = withSharedFailureShape(
  z
    .object({
      observedGeneration: int64().optional(),
      phase: CocoonSetPhaseSchema.optional(),
      readyAgents: goAlways(int32().optional()),
      desiredAgents: goAlways(int32().optional()),
      readyToolboxes: goAlways(int32().optional()),
      desiredToolboxes: goAlways(int32().optional()),
      agents: listMap(AgentStatusSchema, "slot").optional(),
      toolboxes: listMap(ToolboxStatusSchema, "name").optional(),
      conditions: conditionList().optional(),
    })
    .describe("CocoonSetStatus represents the observed state of a CocoonSet."),
);
/** A CocoonSet status as stored: the observed state of a CocoonSet. */
export interface CocoonSetStatus {
  /** The `metadata.generation` of the CocoonSet this status was computed from. */
  observedGeneration?: number | undefined;
  /** CocoonSetPhase represents the lifecycle phase of a CocoonSet. */
  phase?: CocoonSetPhase | undefined;
  /** Number of agents that are ready. */
  readyAgents?: number | undefined;
  /** Number of agents the spec asks for. */
  desiredAgents?: number | undefined;
  /** Number of toolboxes that are ready. */
  readyToolboxes?: number | undefined;
  /** Number of toolboxes the spec asks for. */
  desiredToolboxes?: number | undefined;
  /** Observed state of each agent, keyed by `slot`. */
  agents?: AgentStatus[] | undefined;
  /** Observed state of each toolbox, keyed by `name`. */
  toolboxes?: ToolboxStatus[] | undefined;
  /** Conditions of the CocoonSet, keyed by `type`. */
  conditions?: Condition[] | undefined;
}
/** A CocoonSet status as written. */
export type CocoonSetStatusInput = z.input<typeof CocoonSetStatusSchema>;
