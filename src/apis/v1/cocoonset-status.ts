import { z } from "zod";
import { conditionList } from "./condition.js";
import { CocoonSetPhaseSchema, ConnTypeSchema } from "./enum-schemas.js";
import { listMap } from "./internal/list-map.js";
import { int32, int64 } from "./internal/schema-helpers.js";

/** Validates the observed state of one agent VM (Go `AgentStatus`); `slot` and `role` are required. */
export const AgentStatusSchema = z
  .object({
    slot: int32(),
    role: z.string(),
    podName: z.string().optional(),
    vmName: z.string().optional(),
    vmID: z.string().optional(),
    ip: z.string().optional(),
    phase: z.string().optional(),
    forkedFrom: z.string().optional(),
  })
  .describe("AgentStatus represents the observed state of a single agent VM.");
/** An agent status as stored. */
export type AgentStatus = z.output<typeof AgentStatusSchema>;
/** An agent status as written. */
export type AgentStatusInput = z.input<typeof AgentStatusSchema>;

/**
 * Validates the observed state of one toolbox VM (Go `ToolboxStatus`); `name` is required and
 * `vncPort` has no bounds here (unlike the spec's).
 */
export const ToolboxStatusSchema = z
  .object({
    name: z.string(),
    podName: z.string().optional(),
    vmName: z.string().optional(),
    vmID: z.string().optional(),
    ip: z.string().optional(),
    phase: z.string().optional(),
    connType: ConnTypeSchema.optional(),
    vncPort: int32().optional(),
  })
  .describe("ToolboxStatus represents the observed state of a single toolbox VM.");
/** A toolbox status as stored. */
export type ToolboxStatus = z.output<typeof ToolboxStatusSchema>;
/** A toolbox status as written. */
export type ToolboxStatusInput = z.input<typeof ToolboxStatusSchema>;

/**
 * Validates the observed state of a CocoonSet (Go `CocoonSetStatus`). `agents`, `toolboxes` and
 * `conditions` are list-maps keyed by `slot`, `name` and `type`: duplicate keys are rejected. The
 * four counters are optional in the schema even though Go always writes them.
 */
export const CocoonSetStatusSchema = z
  .object({
    observedGeneration: int64().optional(),
    phase: CocoonSetPhaseSchema.optional(),
    readyAgents: int32().optional(),
    desiredAgents: int32().optional(),
    readyToolboxes: int32().optional(),
    desiredToolboxes: int32().optional(),
    agents: listMap(AgentStatusSchema, "slot").optional(),
    toolboxes: listMap(ToolboxStatusSchema, "name").optional(),
    conditions: conditionList().optional(),
  })
  .describe("CocoonSetStatus represents the observed state of a CocoonSet.");
/** A CocoonSet status as stored. */
export type CocoonSetStatus = z.output<typeof CocoonSetStatusSchema>;
/** A CocoonSet status as written. */
export type CocoonSetStatusInput = z.input<typeof CocoonSetStatusSchema>;
