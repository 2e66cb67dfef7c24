import type { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import type { CocoonHibernation, CocoonSet } from "../../apis/v1/index.js";
import { readHibernateState, roleForPod } from "../../meta/index.js";
import type { CocoonClients } from "../clients.js";
import { patchHibernateState } from "../patch/contracts.js";
import { releaseSeat } from "../release-seat.js";
import type { UnexpectedObjectError } from "../resources/unexpected-object-error.js";
import { watchCocoonHibernations, watchCocoonPods, watchCocoonSets } from "./cocoon-watches.js";
import type { CocoonWatch } from "./resource-watch.js";
import type { WatchEvent } from "./watch-event.js";
import type { WatchedPod } from "./watched-pod.js";
import type { WatchedPodSchema } from "./watched-pod-schema.js";

declare const clients: CocoonClients;

describe("the typed watches", () => {
  it("take createClients' clients and yield their kind's parsed type", () => {
    expectTypeOf(watchCocoonSets(clients)).toEqualTypeOf<CocoonWatch<CocoonSet>>();
    expectTypeOf(watchCocoonHibernations(clients)).toEqualTypeOf<CocoonWatch<CocoonHibernation>>();
    expectTypeOf(watchCocoonPods(clients)).toEqualTypeOf<CocoonWatch<WatchedPod>>();
    expectTypeOf(watchCocoonSets(clients).get({ namespace: "a", name: "b" })).toEqualTypeOf<CocoonSet | undefined>();
  });

  it("narrow an event by its type", () => {
    const event = {} as WatchEvent<CocoonSet>;
    if (event.type === "added" || event.type === "modified" || event.type === "deleted")
      expectTypeOf(event.object).toEqualTypeOf<CocoonSet>();
    if (event.type === "invalid") {
      expectTypeOf(event.object).toBeUnknown();
      expectTypeOf(event.error).toEqualTypeOf<UnexpectedObjectError>();
      expectTypeOf(event.change).toEqualTypeOf<"added" | "modified" | "deleted">();
    }
    if (event.type === "synced" || event.type === "relisted") expectTypeOf(event.resourceVersion).toBeString();
    if (event.type === "retrying") expectTypeOf(event.delayMs).toBeNumber();
  });

  it("deliver pods every helper takes", () => {
    const pod = {} as WatchedPod;
    expectTypeOf(readHibernateState).toBeCallableWith(pod);
    expectTypeOf(roleForPod).toBeCallableWith(pod, "demo-0");
    expectTypeOf(patchHibernateState<WatchedPod>).toBeCallableWith(clients, pod, true);
    expectTypeOf(releaseSeat).toBeCallableWith(clients, pod);
    expectTypeOf(pod.metadata.creationTimestamp).toEqualTypeOf<string | undefined>();
  });
});

describe("WatchedPod", () => {
  it("is exactly what its schema parses to", () => {
    expectTypeOf<z.output<typeof WatchedPodSchema>>().toEqualTypeOf<WatchedPod>();
  });
});
