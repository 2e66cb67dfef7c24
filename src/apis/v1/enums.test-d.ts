import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { agentModeOrDefault, backendOrDefault, isAgentMode, isConnType } from "./enum-guards.js";
import {
  AgentMode,
  type Backend,
  type CocoonHibernationPhase,
  type CocoonSetPhase,
  type ConnType,
  type HibernatePolicy,
  type HibernationDesire,
  type OSType,
  type SnapshotPolicy,
  type ToolboxMode,
} from "./enums.js";
import type * as Schemas from "./enum-schemas.js";

describe("enum types", () => {
  it("pins each schema's inferred type to the same-name union", () => {
    expectTypeOf<z.infer<typeof Schemas.AgentModeSchema>>().toEqualTypeOf<AgentMode>();
    expectTypeOf<z.infer<typeof Schemas.ToolboxModeSchema>>().toEqualTypeOf<ToolboxMode>();
    expectTypeOf<z.infer<typeof Schemas.OSTypeSchema>>().toEqualTypeOf<OSType>();
    expectTypeOf<z.infer<typeof Schemas.SnapshotPolicySchema>>().toEqualTypeOf<SnapshotPolicy>();
    expectTypeOf<z.infer<typeof Schemas.HibernatePolicySchema>>().toEqualTypeOf<HibernatePolicy>();
    expectTypeOf<z.infer<typeof Schemas.CocoonSetPhaseSchema>>().toEqualTypeOf<CocoonSetPhase>();
    expectTypeOf<z.infer<typeof Schemas.ConnTypeSchema>>().toEqualTypeOf<ConnType>();
    expectTypeOf<z.infer<typeof Schemas.BackendSchema>>().toEqualTypeOf<Backend>();
    expectTypeOf<z.infer<typeof Schemas.HibernationDesireSchema>>().toEqualTypeOf<HibernationDesire>();
    expectTypeOf<z.infer<typeof Schemas.CocoonHibernationPhaseSchema>>().toEqualTypeOf<CocoonHibernationPhase>();
  });

  it("spells the unions out", () => {
    expectTypeOf<AgentMode>().toEqualTypeOf<"clone" | "run">();
    expectTypeOf<OSType>().toEqualTypeOf<"linux" | "windows" | "android" | "macos">();
    expectTypeOf<ConnType>().toEqualTypeOf<"ssh" | "rdp" | "vnc" | "adb">();
    expectTypeOf(AgentMode.Clone).toEqualTypeOf<"clone">();
  });

  it("narrows with the guards", () => {
    const value: unknown = "run";
    if (isAgentMode(value)) expectTypeOf(value).toEqualTypeOf<AgentMode>();
    if (isConnType(value)) expectTypeOf(value).toEqualTypeOf<ConnType>();
  });

  it("keeps the enum type for known inputs and widens to string for arbitrary ones", () => {
    expectTypeOf(agentModeOrDefault(undefined)).toEqualTypeOf<AgentMode>();
    expectTypeOf(agentModeOrDefault("")).toEqualTypeOf<AgentMode>();
    expectTypeOf(backendOrDefault("qemu" as string)).toEqualTypeOf<string>();
  });
});
