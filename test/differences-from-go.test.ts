// One test per section of docs/differences-from-go.md: each deliberate difference from Go, as the
// page states it. (The real-server proof of the annotation section is in
// test/integration/k8s-patch-zero-values.test.ts.)
import type { CustomObjectsApi } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../src/errors.js";
import { fakeApi } from "../src/k8s/fakes.test-util.js";
import { patch, patchAnnotations, patchStatus } from "../src/k8s/index.js";
import { annotationsMergePatch, annotationsMergePatchJSON } from "../src/meta/index.js";

const set = () => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "ns", resourceVersion: "7", annotations: { k: "v" } as Record<string, string> },
  spec: { agent: { image: "img" } },
});
const fakes = () => {
  const custom = fakeApi<CustomObjectsApi>(() => ({ served: true }));
  return { clients: { customObjects: custom.api }, calls: custom.calls };
};

describe("differences from Go", () => {
  it("An empty annotation key is refused", async () => {
    for (const build of [() => annotationsMergePatch({ "": "x" }), () => annotationsMergePatchJSON({ "": null })]) {
      expect(build).toThrow(expect.objectContaining({ code: "ERR_INVALID_ANNOTATION_DELTA" }));
    }
    const { clients, calls } = fakes();
    await expect(patchAnnotations(clients, set(), { "": "x" })).rejects.toSatisfy((err) =>
      isCocoonError(err, "ERR_INVALID_ANNOTATION_DELTA"),
    );
    expect(calls).toHaveLength(0);
  });

  it("A patch that changes nothing sends no request", async () => {
    const { clients, calls } = fakes();
    const original = set();
    expect(await patch(clients, original, (copy) => void (copy.spec.agent.image = "img"))).toBe(original);
    expect(await patchStatus(clients, original, () => undefined, { optimisticLock: true })).toBe(original);
    expect(calls).toHaveLength(0); // Go: two requests, `{}` and `{"metadata":{"resourceVersion":"7"}}`
  });

  it("Deleting the last annotation deletes that key, not the map", async () => {
    const { clients, calls } = fakes();
    await patch(clients, set(), (copy) => void (copy.metadata.annotations = {}));
    expect(calls.map((call) => call.wireBody)).toEqual(['{"metadata":{"annotations":{"k":null}}}']); // Go: {"metadata":{"annotations":null}}
  });
});
