import type { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../../errors.js";
import { Annotation } from "../../meta/index.js";
import { fakeApi, servedAs } from "../fakes.test-util.js";
import { patchAnnotations } from "./annotations.js";
import { patchCocoonSetGeneration, patchHibernateState, patchHibernatedOnNode, patchKeepSnapshotOnDelete } from "./contracts.js";

const MERGE = "application/merge-patch+json";
const pod = (annotations?: Record<string, string>) => ({
  metadata: { name: "vk-ns-demo-0", namespace: "ns", ...(annotations && { annotations }) },
});
const cocoonSet = (annotations?: Record<string, string>) => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "ns", ...(annotations && { annotations }) },
});
const fakes = () => {
  const core = fakeApi<CoreV1Api>((_m, params) => ({ ...servedAs(params), served: params["name"] }));
  const customObjects = fakeApi<CustomObjectsApi>((_m, params) => ({ ...servedAs(params), served: params["name"] }));
  return { clients: { core: core.api, customObjects: customObjects.api }, core: core.calls, custom: customObjects.calls };
};
const annotationsBody = (annotations: Record<string, string | null>) => ({ metadata: { annotations } });

describe("patchKeepSnapshotOnDelete", () => {
  it.each([
    ["missing map", undefined, 1],
    ["other keys only", { a: "b" }, 1],
    ["value False is not flagged", { [Annotation.KeepSnapshotOnDelete]: "False" }, 1],
    ["already flagged", { [Annotation.KeepSnapshotOnDelete]: "true" }, 0],
  ])("%s", async (_name, annotations, requests) => {
    const { clients, core } = fakes();
    const target = pod(annotations);
    const result = await patchKeepSnapshotOnDelete(clients, target);
    expect(core).toHaveLength(requests);
    if (requests === 0) expect(result).toBe(target);
    else {
      expect(core[0]).toMatchObject({ method: "patchNamespacedPod", contentType: MERGE });
      expect(core[0]?.params).toEqual({
        name: "vk-ns-demo-0",
        namespace: "ns",
        body: annotationsBody({ [Annotation.KeepSnapshotOnDelete]: "true" }),
      });
      expect(result).toMatchObject({ served: "vk-ns-demo-0" });
    }
  });
});

describe("patchHibernateState", () => {
  it.each([
    ["set on missing", undefined, true, "true"],
    ["already true", { [Annotation.Hibernate]: "true" }, true, undefined],
    ["clear true", { [Annotation.Hibernate]: "true" }, false, null],
    ["false on missing sends nothing", undefined, false, undefined],
    ["garbage false counts as already false", { [Annotation.Hibernate]: "false" }, false, undefined],
    ["garbage yes counts as already false", { [Annotation.Hibernate]: "yes" }, false, undefined],
    ["garbage yes is not true", { [Annotation.Hibernate]: "yes" }, true, "true"],
  ] as const)("%s", async (_name, annotations, state, sent) => {
    const { clients, core } = fakes();
    const target = pod(annotations);
    const result = await patchHibernateState(clients, target, state);
    if (sent === undefined) {
      expect(core).toHaveLength(0);
      expect(result).toBe(target);
    } else {
      expect(core).toHaveLength(1);
      expect(core[0]?.contentType).toBe(MERGE);
      expect(core[0]?.params["body"]).toEqual(annotationsBody({ [Annotation.Hibernate]: sent }));
    }
    expect(target).toEqual(pod(annotations));
  });
});

describe("patchCocoonSetGeneration", () => {
  it.each([
    ["stamp on missing", undefined, 7, "7"],
    ["same value", { [Annotation.CocoonSetGeneration]: "7" }, 7, undefined],
    ["same parsed value with plus sign", { [Annotation.CocoonSetGeneration]: "+7" }, 7, undefined],
    ["different value", { [Annotation.CocoonSetGeneration]: "6" }, 7, "7"],
    ["zero matches missing", undefined, 0, undefined],
    ["zero matches garbage", { [Annotation.CocoonSetGeneration]: "abc" }, 0, undefined],
    ["bigint beyond safe integers", undefined, 9007199254740993n, "9007199254740993"],
    ["bigint equal to stamped", { [Annotation.CocoonSetGeneration]: "9007199254740993" }, 9007199254740993n, undefined],
  ] as const)("%s", async (_name, annotations, generation, sent) => {
    const { clients, core } = fakes();
    await patchCocoonSetGeneration(clients, pod(annotations), generation);
    expect(core.map((c) => c.params["body"])).toEqual(
      sent === undefined ? [] : [annotationsBody({ [Annotation.CocoonSetGeneration]: sent })],
    );
  });

  it("refuses a generation that is not an int64 before sending", async () => {
    const { clients, core } = fakes();
    await expect(patchCocoonSetGeneration(clients, pod(), 1.5)).rejects.toSatisfy((err) => isCocoonError(err, "ERR_INVALID_INTEGER"));
    expect(core).toHaveLength(0);
  });
});

describe("patchHibernatedOnNode", () => {
  it.each([
    ["stash on missing", undefined, "node-a", "node-a"],
    ["same node", { [Annotation.HibernatedOnNode]: "node-a" }, "node-a", undefined],
    ["other node", { [Annotation.HibernatedOnNode]: "node-a" }, "node-b", "node-b"],
    ["clear", { [Annotation.HibernatedOnNode]: "node-a" }, null, null],
    ["clear with empty string", { [Annotation.HibernatedOnNode]: "node-a" }, "", null],
    ["clear with undefined (an unscheduled pod's node)", { [Annotation.HibernatedOnNode]: "node-a" }, undefined, null],
    ["undefined when missing sends nothing", undefined, undefined, undefined],
    ["clear when missing", undefined, null, undefined],
    ["clear when empty value", { [Annotation.HibernatedOnNode]: "" }, null, undefined],
  ] as const)("%s", async (_name, annotations, node, sent) => {
    const { clients, custom, core } = fakes();
    await patchHibernatedOnNode(clients, cocoonSet(annotations), node);
    expect(core).toHaveLength(0);
    if (sent === undefined) expect(custom).toHaveLength(0);
    else {
      expect(custom).toHaveLength(1);
      expect(custom[0]).toMatchObject({ method: "patchNamespacedCustomObject", contentType: MERGE });
      expect(custom[0]?.params).toEqual({
        group: "cocoonset.cocoonstack.io",
        version: "v1",
        plural: "cocoonsets",
        name: "demo",
        namespace: "ns",
        body: annotationsBody({ [Annotation.HibernatedOnNode]: sent }),
      });
    }
  });
});

describe("the bytes sent: Go's encoder for every annotation body", () => {
  it("patchAnnotations writes keys sorted and escaped as Go does", async () => {
    const { clients, core } = fakes();
    await patchAnnotations(clients, pod(), { "k&k": "g", "9": "<", "10": "\u2028", a: "\ud800" });
    expect(core[0]?.wireBody).toBe('{"metadata":{"annotations":{"10":"\\u2028","9":"\\u003c","a":"\ufffd","k\\u0026k":"g"}}}');
  });

  it("patchHibernatedOnNode writes Go's escapes", async () => {
    const { clients, custom } = fakes();
    await patchHibernatedOnNode(clients, cocoonSet(), "node<&>");
    expect(custom[0]?.wireBody).toBe(`{"metadata":{"annotations":{"${Annotation.HibernatedOnNode}":"node\\u003c\\u0026\\u003e"}}}`);
  });
});

describe("patchAnnotations", () => {
  it("sends one merge patch with sorted keys when anything differs", async () => {
    const { clients, core } = fakes();
    await patchAnnotations(clients, pod({ keep: "1", [Annotation.VMID]: "old" }), {
      [Annotation.VMID]: "vm-1",
      [Annotation.IP]: null,
      keep: "1",
    });
    expect(core).toHaveLength(1);
    expect(JSON.stringify(core[0]?.params["body"])).toBe(
      '{"metadata":{"annotations":{"keep":"1","vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":null}}}',
    );
  });

  it("sends nothing when the delta is satisfied", async () => {
    const { clients, core } = fakes();
    const target = pod({ a: "1" });
    expect(await patchAnnotations(clients, target, { a: "1", gone: null })).toBe(target);
    expect(core).toHaveLength(0);
  });

  it.each([
    ["Pod with kind", { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns" } }, "core", "patchNamespacedPod"],
    ["Pod without kind", { metadata: { name: "p", namespace: "ns" } }, "core", "patchNamespacedPod"],
    [
      "CocoonSet without apiVersion",
      { kind: "CocoonSet", metadata: { name: "s", namespace: "ns" } },
      "custom",
      "patchNamespacedCustomObject",
    ],
    [
      "CocoonHibernation",
      { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonHibernation", metadata: { name: "h", namespace: "ns" } },
      "custom",
      "patchNamespacedCustomObject",
    ],
  ] as const)("routes a %s", async (_name, target, via, method) => {
    const f = fakes();
    await patchAnnotations(f.clients, target, { a: "1" });
    expect(f[via].map((c) => c.method)).toEqual([method]);
    if ("kind" in target && target.kind === "CocoonHibernation") expect(f.custom[0]?.params["plural"]).toBe("cocoonhibernations");
  });

  it.each([
    ["a Deployment", { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d", namespace: "ns" } }],
    ["a Pod of another group", { apiVersion: "example.com/v1", kind: "Pod", metadata: { name: "d", namespace: "ns" } }],
    [
      "a CocoonSet of another version",
      { apiVersion: "cocoonset.cocoonstack.io/v2", kind: "CocoonSet", metadata: { name: "d", namespace: "ns" } },
    ],
    ["no name", { metadata: { namespace: "ns" } }],
    ["no namespace", { metadata: { name: "p" } }],
  ])("refuses %s without a request", async (_name, target) => {
    const { clients, core, custom } = fakes();
    await expect(patchAnnotations(clients, target, { a: "1" })).rejects.toSatisfy((err) => isCocoonError(err, "ERR_INVALID_ARGUMENT"));
    expect(core.length + custom.length).toBe(0);
  });

  it("names the missing client", async () => {
    const { api } = fakeApi<CoreV1Api>(() => ({}));
    await expect(patchAnnotations({ core: api }, cocoonSet(), { a: "1" })).rejects.toThrow(
      /needs clients\.customObjects\.patchNamespacedCustomObject/,
    );
  });

  it("refuses an empty delta even though it is trivially satisfied", async () => {
    const { clients } = fakes();
    await expect(patchAnnotations(clients, pod(), {})).rejects.toSatisfy((err) => isCocoonError(err, "ERR_INVALID_ANNOTATION_DELTA"));
  });

  it("passes the abort signal, and never starts when it has already aborted", async () => {
    const { clients, core } = fakes();
    const controller = new AbortController();
    await patchAnnotations(clients, pod(), { a: "1" }, { signal: controller.signal });
    expect(core[0]?.signal).toBe(controller.signal);
    controller.abort(new Error("stop"));
    await expect(patchAnnotations(clients, pod(), { a: "2" }, { signal: controller.signal })).rejects.toThrow("stop");
    expect(core).toHaveLength(1);
  });

  it("rejects with the signal's reason when aborted mid-request", async () => {
    const controller = new AbortController();
    const { api, calls } = fakeApi<CoreV1Api>(
      () =>
        new Promise((_resolve, reject) => {
          calls
            .at(-1)
            ?.signal?.addEventListener("abort", () =>
              reject(Object.assign(new Error("The user aborted a request."), { name: "AbortError" })),
            );
        }),
    );
    const pending = patchAnnotations({ core: api }, pod(), { a: "1" }, { signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort(new Error("deadline"));
    await expect(pending).rejects.toThrow("deadline");
  });

  it("leaves the target untouched when the request fails", async () => {
    const { api } = fakeApi<CoreV1Api>(() => {
      throw new Error("boom");
    });
    const target = pod({ a: "0" });
    await expect(patchAnnotations({ core: api }, target, { a: "1" })).rejects.toThrow("boom");
    expect(target).toEqual(pod({ a: "0" }));
  });
});
