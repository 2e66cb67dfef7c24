// ./meta sits above apis/v1: the check that its spec readers take the schemas' output types lives here.
import { describe, expectTypeOf, it } from "vitest";
import type { AgentSpec, ToolboxSpec } from "../apis/v1/cocoonset-spec.js";
import type { AgentSpecLike, ToolboxSpecLike } from "./from-spec.js";

describe("output (stored) types of apis/v1", () => {
  it("fits the ./meta spec readers", () => {
    expectTypeOf<AgentSpec>().toExtend<AgentSpecLike>();
    expectTypeOf<ToolboxSpec>().toExtend<ToolboxSpecLike>();
  });
});
