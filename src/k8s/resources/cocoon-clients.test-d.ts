import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import type { CocoonHibernation, CocoonHibernationInput, CocoonSet, CocoonSetList } from "../../apis/v1/index.js";
import type { CocoonClients } from "../clients.js";
import { cocoonSetClient } from "./cocoon-clients.js";
import type { ResourceClients } from "./resource-client.js";

declare const clients: CocoonClients;
declare const set: CocoonSet;
const ref = { namespace: "demo", name: "sandbox" };

describe("the typed clients", () => {
  it("are built on a stock CustomObjectsApi, and CocoonClients carries them", () => {
    expectTypeOf({ customObjects: new KubeConfig().makeApiClient(CustomObjectsApi) }).toExtend<ResourceClients>();
    expectTypeOf<CocoonClients>().toExtend<ResourceClients>();
    expectTypeOf(clients.cocoonSets).toEqualTypeOf(cocoonSetClient(clients));
  });

  it("resolve to the schema's output types", () => {
    expectTypeOf(clients.cocoonSets.get(ref)).resolves.toEqualTypeOf<CocoonSet>();
    expectTypeOf(clients.cocoonSets.list()).resolves.toEqualTypeOf<CocoonSetList>();
    expectTypeOf(clients.cocoonSets.patch(set, () => undefined)).resolves.toEqualTypeOf<CocoonSet>();
    expectTypeOf(clients.cocoonSets.patch(ref, [{ op: "remove", path: "/spec/suspend" }])).resolves.toEqualTypeOf<CocoonSet>();
    expectTypeOf(clients.cocoonSets.delete(ref)).resolves.toEqualTypeOf<CocoonSet | undefined>();
    expectTypeOf(clients.cocoonHibernations.get(ref)).resolves.toEqualTypeOf<CocoonHibernation>();
  });

  it("take the input type of their own kind", () => {
    expectTypeOf<Parameters<CocoonClients["cocoonHibernations"]["create"]>[0]>().toEqualTypeOf<CocoonHibernationInput>();
    // @ts-expect-error a CocoonHibernation is not a CocoonSet
    void clients.cocoonSets.create({ apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonHibernation", metadata: {} });
  });

  it("pair a mutation with the object and a body with a reference", () => {
    // @ts-expect-error a mutation needs the object it mutates
    void clients.cocoonSets.patch(ref, () => undefined);
    // @ts-expect-error a body is sent by reference
    void clients.cocoonSets.patchStatus(set, { status: {} });
    // @ts-expect-error a JSON patch operation needs its value
    void clients.cocoonSets.patch(ref, [{ op: "add", path: "/spec/suspend" }]);
  });
});
