import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import type { CocoonClients } from "./clients.js";
import type { InstallCRDsClients } from "./install-crds.js";
import type { CocoonSetPatchClients, PodPatchClients } from "./patch/contracts.js";
import { patchHibernateState } from "./patch/contracts.js";
import { patch } from "./patch/clientpatch.js";
import type { AnnotationClients, PatchClients } from "./patch/target.js";
import type { ReleaseSeatClients } from "./release-seat.js";

const kc = new KubeConfig();
const stock = { core: kc.makeApiClient(CoreV1Api), customObjects: kc.makeApiClient(CustomObjectsApi) };

describe("client parameters are structural", () => {
  it("accept stock client-node clients", () => {
    expectTypeOf(stock).toExtend<PatchClients>();
    expectTypeOf(stock).toExtend<AnnotationClients>();
    expectTypeOf(stock).toExtend<PodPatchClients>();
    expectTypeOf(stock).toExtend<CocoonSetPatchClients>();
    expectTypeOf(stock).toExtend<ReleaseSeatClients>();
    expectTypeOf(stock).toExtend<InstallCRDsClients>();
  });

  it("accept CocoonClients", () => {
    expectTypeOf<CocoonClients>().toExtend<PatchClients>();
    expectTypeOf<CocoonClients>().toExtend<ReleaseSeatClients>();
    expectTypeOf<CocoonClients>().toExtend<InstallCRDsClients>();
  });

  it("do not accept a CoreV1Api where a CustomObjectsApi is needed", () => {
    expectTypeOf({ customObjects: stock.core }).not.toExtend<CocoonSetPatchClients>();
  });

  it("keep the object's type through a patch", () => {
    const pod = {} as V1Pod;
    expectTypeOf(patchHibernateState(stock, pod, true)).toEqualTypeOf<Promise<V1Pod>>();
    expectTypeOf(
      patch(stock, pod, (copy) => {
        expectTypeOf(copy).toEqualTypeOf<V1Pod>();
      }),
    ).toEqualTypeOf<Promise<V1Pod>>();
  });
});
