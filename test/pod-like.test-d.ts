import type { V1Pod } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import type { WatchedPod } from "../src/k8s/index.js";
import type { CocoonPod, PodLike } from "../src/meta/index.js";

/** An object type under `T`'s optionality and list. */
type Item<T> = NonNullable<T> extends readonly (infer E)[] ? NonNullable<E> : NonNullable<T>;
/** A record's keys are data, not fields. */
type IsRecord<T> = string extends keyof T ? true : false;
/** The fields a schema names, without a loose object's index signature. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** The paths of the fields `L` names that `I` does not, at any depth: `never` when `L` only picks from `I`. */
type ExtraFields<L, I> = {
  [K in keyof L & string]-?: K extends keyof Known<I>
    ? Item<L[K]> extends object
      ? IsRecord<Item<L[K]>> extends true
        ? never
        : `${K}.${ExtraFields<Item<L[K]>, Item<Known<I>[K]>>}`
      : never
    : K;
}[keyof L & string];

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
  it("reads no field the live pod's schema does not define", () => {
    expectTypeOf<ExtraFields<PodLike, WatchedPod>>().toBeNever();
    expectTypeOf<ExtraFields<{ metadata?: { uidd?: string } }, WatchedPod>>().toEqualTypeOf<"metadata.uidd">();
  });
});
