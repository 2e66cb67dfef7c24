// The builders take a CocoonSet as the schema parses it and a live pod as client-node reads it,
// and return a pod client-node accepts: no cast anywhere.
import type { V1Pod } from "@kubernetes/client-node";
import { expectTypeOf, test } from "vitest";
import type { CocoonSet } from "../../apis/v1/index.js";
import { buildMainPod, buildToolboxPod, buildWakePod, podSpecMatchesAgent, podSpecMatchesToolbox } from "../index.js";

declare const set: CocoonSet;
declare const live: V1Pod;

test("a parsed CocoonSet in, a client-node pod out", () => {
  expectTypeOf(buildMainPod(set)).toExtend<V1Pod>();
  expectTypeOf(buildWakePod(set)).toExtend<V1Pod>();
  for (const tb of set.spec?.toolboxes ?? []) {
    expectTypeOf(buildToolboxPod(set, tb)).toExtend<V1Pod>();
    expectTypeOf(podSpecMatchesToolbox(live, set, tb)).toEqualTypeOf<boolean>();
  }
  expectTypeOf(podSpecMatchesAgent(live, set, 0)).toEqualTypeOf<boolean>();
});
