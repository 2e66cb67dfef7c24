import { describe, expectTypeOf, it } from "vitest";
import type { AgentSpec, AgentSpecInput, CocoonSetSpec, CocoonSetSpecInput, ToolboxSpec } from "./cocoonset-spec.js";
import type { CocoonSet, CocoonSetInput } from "./cocoonset-types.js";
import type { CocoonHibernation } from "./cocoonhibernation-types.js";
import type { AgentMode, HibernatePolicy, HibernationDesire, OSType, SnapshotPolicy, ToolboxMode } from "./enums.js";
import type { EnvFromSource, EnvFromSourceInput } from "./env-from.js";
import type { Quantity } from "./resources.js";
import type { ValidationResult } from "./transition-rules.js";

describe("output (stored) vs input (written) types", () => {
  it("makes defaulted fields required on output and optional on input", () => {
    expectTypeOf<Pick<CocoonSetSpec, "snapshotPolicy" | "hibernatePolicy" | "nodePool">>().toEqualTypeOf<{
      snapshotPolicy: SnapshotPolicy;
      hibernatePolicy: HibernatePolicy;
      nodePool: string;
    }>();
    expectTypeOf<Pick<CocoonSetSpecInput, "snapshotPolicy" | "hibernatePolicy" | "nodePool">>().toEqualTypeOf<{
      snapshotPolicy?: SnapshotPolicy | undefined;
      hibernatePolicy?: HibernatePolicy | undefined;
      nodePool?: string | undefined;
    }>();
    expectTypeOf<Pick<AgentSpec, "replicas" | "mode" | "os">>().toEqualTypeOf<{
      replicas: number;
      mode: AgentMode;
      os: OSType;
    }>();
    expectTypeOf<Pick<AgentSpecInput, "replicas" | "mode" | "os">>().toEqualTypeOf<{
      replicas?: number | undefined;
      mode?: AgentMode | undefined;
      os?: OSType | undefined;
    }>();
    expectTypeOf<ToolboxSpec["mode"]>().toEqualTypeOf<ToolboxMode>();
    expectTypeOf<NonNullable<EnvFromSource["configMapRef"]>["name"]>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<EnvFromSourceInput["configMapRef"]>["name"]>().toEqualTypeOf<string | undefined>();
  });

  it("keeps required fields required on both sides", () => {
    expectTypeOf<AgentSpec["image"]>().toEqualTypeOf<string>();
    expectTypeOf<AgentSpecInput["image"]>().toEqualTypeOf<string>();
    expectTypeOf<CocoonHibernation["spec"]>().toEqualTypeOf<{ podRef: { name: string }; desire: HibernationDesire } | undefined>();
  });

  it("types the root as the CRD does: literal type meta, optional spec and status", () => {
    expectTypeOf<CocoonSet["apiVersion"]>().toEqualTypeOf<"cocoonset.cocoonstack.io/v1">();
    expectTypeOf<CocoonSet["kind"]>().toEqualTypeOf<"CocoonSet">();
    expectTypeOf<CocoonSet["spec"]>().toEqualTypeOf<CocoonSetSpec | undefined>();
    expectTypeOf<CocoonSetInput["spec"]>().toEqualTypeOf<CocoonSetSpecInput | undefined>();
    expectTypeOf<CocoonSet["metadata"]["annotations"]>().toEqualTypeOf<Record<string, string> | undefined>();
  });

  it("types quantities as int-or-string", () => {
    expectTypeOf<Quantity>().toEqualTypeOf<number | string>();
    expectTypeOf<AgentSpec["storage"]>().toEqualTypeOf<number | string | undefined>();
  });

  it("narrows validation results on success", () => {
    const result = {} as ValidationResult;
    if (!result.success) expectTypeOf(result.issues[0].message).toEqualTypeOf<string>();
  });
});
