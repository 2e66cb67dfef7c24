import type { V1Pod } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import type { WatchedPod } from "../src/k8s/index.js";
import type { CocoonPod, PodLike } from "../src/meta/index.js";

// PodLike is the pod readers' parameter: every pod the package defines by a schema, and the
// client's own type, must fit it with no cast.
describe("PodLike", () => {
  it("accepts a live pod from the watch (WatchedPodSchema's output)", () => {
    expectTypeOf<WatchedPod>().toExtend<PodLike>();
  });
  it("accepts a pod the operator builds (BuiltPodSchema's output)", () => {
    expectTypeOf<CocoonPod>().toExtend<PodLike>();
  });
  it("accepts client-node's V1Pod", () => {
    expectTypeOf<V1Pod>().toExtend<PodLike>();
  });
});
