import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError, isUnexpectedObjectError, patchVMRuntime } from "../../src/k8s/index.js";
import { Annotation } from "../../src/meta/index.js";
import { podObject, startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { json, type SeenRequest } from "./support/peer.js";

// Issue 34, item 2: patchVMRuntime writes exactly the runtime annotations that change, in one
// merge patch, and nothing when none does; bad input is refused before any request.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const POD_PATH = "/api/v1/namespaces/prod/pods/demo-0";
const pod = (annotations: Record<string, string> = {}) => ({ metadata: { name: "demo-0", namespace: "prod", uid: "u-1", annotations } });

/** Applies the merge patch's annotations to the pod the server holds, as the API server does. */
const serving = (annotations: Record<string, string>) => (req: SeenRequest, res: ServerResponse) => {
  const patch = JSON.parse(req.body.toString()) as { metadata: { annotations: Record<string, string | null> } };
  for (const [key, value] of Object.entries(patch.metadata.annotations)) {
    if (value === null) delete annotations[key];
    else annotations[key] = value;
  }
  json(res, 200, podObject("demo-0", "prod", "u-1", { annotations }));
};
const wire = () => api.peer.seen.map((r) => [r.method, r.path, r.headers["content-type"], r.body.toString()]);
const codeOf = async (promise: Promise<unknown>) => {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isCocoonError(err) ? err.code : err;
};

describe("patchVMRuntime on the wire", () => {
  it("sends the new runtime as one merge patch and resolves to the server's pod", async () => {
    const held: Record<string, string> = { other: "kept" };
    api.handle(serving(held));
    const written = await patchVMRuntime(api.clients, pod({ other: "kept" }), { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 });
    expect(wire()).toEqual([
      [
        "PATCH",
        POD_PATH,
        "application/merge-patch+json",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":"10.88.0.7","vm.cocoonstack.io/vnc-port":"5900"}}}',
      ],
    ]);
    expect(written.metadata?.annotations).toEqual({
      other: "kept",
      [Annotation.VMID]: "vm-1",
      [Annotation.IP]: "10.88.0.7",
      [Annotation.VNCPort]: "5900",
    });
  });

  it("sends only the changed IP when the VM comes back on a new address", async () => {
    api.handle(serving({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7" }));
    await patchVMRuntime(api.clients, pod({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7" }), { vmID: "vm-1", ip: "10.88.0.8" });
    expect(wire()).toEqual([
      ["PATCH", POD_PATH, "application/merge-patch+json", '{"metadata":{"annotations":{"vm.cocoonstack.io/ip":"10.88.0.8"}}}'],
    ]);
  });

  it("sends nothing when the pod already holds the runtime", async () => {
    api.handle(serving({}));
    const live = pod({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7", [Annotation.VNCPort]: "5900" });
    expect(await patchVMRuntime(api.clients, live, { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 })).toBe(live);
    expect(await patchVMRuntime(api.clients, live, { vmID: "", ip: "" })).toBe(live);
    expect(api.peer.seen).toHaveLength(0);
  });

  it.each([
    ["a runtime that is null", pod(), null, "ERR_INVALID_ARGUMENT"],
    ["a vmID that is a number", pod(), { vmID: 7 }, "ERR_INVALID_ARGUMENT"],
    ["a VNC port beyond int32", pod(), { vncPort: 2 ** 31 }, "ERR_INVALID_INTEGER"],
    ["a pod named ..", { metadata: { name: "..", namespace: "prod" } }, { vmID: "vm-1" }, "ERR_INVALID_ARGUMENT"],
    [
      "a Node",
      { kind: "Node", apiVersion: "v1", metadata: { name: "demo-0", namespace: "prod" } },
      { vmID: "vm-1" },
      "ERR_INVALID_ARGUMENT",
    ],
  ])("refuses %s with no request", async (_what, target, runtime, code) => {
    api.handle(serving({}));
    expect(await codeOf(patchVMRuntime(api.clients, target, runtime as never))).toBe(code);
    expect(api.peer.seen).toHaveLength(0);
  });

  it("refuses an answer that is another pod, after exactly one request", async () => {
    api.handle((_req, res) => {
      json(res, 200, podObject("demo-0", "prod", "u-2"));
    });
    const err: unknown = await patchVMRuntime(api.clients, pod(), { vmID: "vm-1" }).catch((e: unknown) => e);
    expect(isUnexpectedObjectError(err) ? [err.code, err.path] : err).toEqual(["ERR_UNEXPECTED_OBJECT", "metadata.uid"]);
    expect(api.peer.seen).toHaveLength(1);
  });
});
