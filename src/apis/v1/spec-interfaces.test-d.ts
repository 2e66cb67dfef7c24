import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { AgentSpec, AgentSpecSchema, CocoonSetSpec, CocoonSetSpecSchema, ToolboxSpec, ToolboxSpecSchema } from "./cocoonset-spec.js";
import type {
  AgentStatus,
  AgentStatusSchema,
  CocoonSetStatus,
  CocoonSetStatusSchema,
  ToolboxStatus,
  ToolboxStatusSchema,
} from "./cocoonset-status.js";
import type {
  CocoonHibernationSpec,
  CocoonHibernationSpecSchema,
  CocoonHibernationStatus,
  CocoonHibernationStatusSchema,
  HibernationPodRef,
  HibernationPodRefSchema,
} from "./cocoonhibernation-types.js";
import type { Condition, ConditionSchema } from "./condition.js";
import type {
  ConfigMapEnvSource,
  ConfigMapEnvSourceSchema,
  EnvFromSource,
  EnvFromSourceSchema,
  SecretEnvSource,
  SecretEnvSourceSchema,
} from "./env-from.js";
import type { ResourceClaim, ResourceClaimSchema, ResourceRequirements, ResourceRequirementsSchema } from "./resources.js";
import type { VMOptions, VMOptionsSchema } from "./vm-options.js";

// The interfaces are written out for readers; the schemas stay the source. Each pair must be
// exactly equal, so a field added to one side only (or with another type or optionality) fails here.

/** Each named interface beside its schema's output. */
interface Pairs {
  CocoonSetSpec: [CocoonSetSpec, z.output<typeof CocoonSetSpecSchema>];
  AgentSpec: [AgentSpec, z.output<typeof AgentSpecSchema>];
  ToolboxSpec: [ToolboxSpec, z.output<typeof ToolboxSpecSchema>];
  VMOptions: [VMOptions, z.output<typeof VMOptionsSchema>];
  EnvFromSource: [EnvFromSource, z.output<typeof EnvFromSourceSchema>];
  ConfigMapEnvSource: [ConfigMapEnvSource, z.output<typeof ConfigMapEnvSourceSchema>];
  SecretEnvSource: [SecretEnvSource, z.output<typeof SecretEnvSourceSchema>];
  ResourceRequirements: [ResourceRequirements, z.output<typeof ResourceRequirementsSchema>];
  ResourceClaim: [ResourceClaim, z.output<typeof ResourceClaimSchema>];
  CocoonSetStatus: [CocoonSetStatus, z.output<typeof CocoonSetStatusSchema>];
  AgentStatus: [AgentStatus, z.output<typeof AgentStatusSchema>];
  ToolboxStatus: [ToolboxStatus, z.output<typeof ToolboxStatusSchema>];
  Condition: [Condition, z.output<typeof ConditionSchema>];
  CocoonHibernationSpec: [CocoonHibernationSpec, z.output<typeof CocoonHibernationSpecSchema>];
  HibernationPodRef: [HibernationPodRef, z.output<typeof HibernationPodRefSchema>];
  CocoonHibernationStatus: [CocoonHibernationStatus, z.output<typeof CocoonHibernationStatusSchema>];
}
/** `true` when each side of the pair is assignable to the other. */
type BothWays<P> = P extends [infer A, infer B] ? ([A] extends [B] ? ([B] extends [A] ? true : false) : false) : never;

describe("the named output interfaces equal their schemas' output", () => {
  it("CocoonSet spec", () => {
    expectTypeOf<CocoonSetSpec>().toEqualTypeOf<z.output<typeof CocoonSetSpecSchema>>();
    expectTypeOf<AgentSpec>().toEqualTypeOf<z.output<typeof AgentSpecSchema>>();
    expectTypeOf<ToolboxSpec>().toEqualTypeOf<z.output<typeof ToolboxSpecSchema>>();
    expectTypeOf<VMOptions>().toEqualTypeOf<z.output<typeof VMOptionsSchema>>();
    expectTypeOf<EnvFromSource>().toEqualTypeOf<z.output<typeof EnvFromSourceSchema>>();
    expectTypeOf<ConfigMapEnvSource>().toEqualTypeOf<z.output<typeof ConfigMapEnvSourceSchema>>();
    expectTypeOf<SecretEnvSource>().toEqualTypeOf<z.output<typeof SecretEnvSourceSchema>>();
    expectTypeOf<ResourceRequirements>().toEqualTypeOf<z.output<typeof ResourceRequirementsSchema>>();
    expectTypeOf<ResourceClaim>().toEqualTypeOf<z.output<typeof ResourceClaimSchema>>();
  });

  it("CocoonSet status", () => {
    expectTypeOf<CocoonSetStatus>().toEqualTypeOf<z.output<typeof CocoonSetStatusSchema>>();
    expectTypeOf<AgentStatus>().toEqualTypeOf<z.output<typeof AgentStatusSchema>>();
    expectTypeOf<ToolboxStatus>().toEqualTypeOf<z.output<typeof ToolboxStatusSchema>>();
    expectTypeOf<Condition>().toEqualTypeOf<z.output<typeof ConditionSchema>>();
  });

  it("CocoonHibernation spec and status", () => {
    expectTypeOf<CocoonHibernationSpec>().toEqualTypeOf<z.output<typeof CocoonHibernationSpecSchema>>();
    expectTypeOf<HibernationPodRef>().toEqualTypeOf<z.output<typeof HibernationPodRefSchema>>();
    expectTypeOf<CocoonHibernationStatus>().toEqualTypeOf<z.output<typeof CocoonHibernationStatusSchema>>();
  });

  // toEqualTypeOf reads `a?: T` and `a?: T | undefined` as equal, but with exactOptionalPropertyTypes
  // only the second accepts an explicit `undefined`, which zod's output does: assignability tells them apart.
  it("keeps zod's `| undefined` on every optional field", () => {
    expectTypeOf<{ [K in keyof Pairs]: BothWays<Pairs[K]> }>().toEqualTypeOf<{ [K in keyof Pairs]: true }>();
  });
});
