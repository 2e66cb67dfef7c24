import type { CoreV1Api, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { Annotation } from "../../meta/index.js";
import { fakeApi, servedAs } from "../fakes.test-util.js";
import { patchVMRuntime } from "./vm-runtime.js";

const core = () => {
  const fake = fakeApi<CoreV1Api>((_method, params) => servedAs(params, "u-1"));
  return { clients: { core: fake.api }, calls: fake.calls };
};
const pod = (annotations: Record<string, string> = {}): V1Pod => ({
  metadata: { name: "demo-0", namespace: "prod", uid: "u-1", annotations },
  spec: { containers: [{ name: "agent", image: "x" }] },
});
const errorOf = async (promise: Promise<unknown>) => {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isCocoonError(err) ? [err.code, err.message] : err;
};

describe("patchVMRuntime", () => {
  it("sends the runtime as one merge patch, keys sorted", async () => {
    const { clients, calls } = core();
    await patchVMRuntime(clients, pod(), { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 });
    expect(calls.map((c) => [c.method, c.params.name, c.params.namespace, c.contentType, c.wireBody])).toEqual([
      [
        "patchNamespacedPod",
        "demo-0",
        "prod",
        "application/merge-patch+json",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":"10.88.0.7","vm.cocoonstack.io/vnc-port":"5900"}}}',
      ],
    ]);
  });

  it("sends only what changed", async () => {
    const { clients, calls } = core();
    await patchVMRuntime(clients, pod({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7" }), { vmID: "vm-1", ip: "10.88.0.8" });
    expect(calls.map((c) => c.wireBody)).toEqual(['{"metadata":{"annotations":{"vm.cocoonstack.io/ip":"10.88.0.8"}}}']);
  });

  it.each([
    ["the same runtime", { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 }],
    ["empty values, which never delete", { vmID: "", ip: "", vncPort: 0 }],
    ["an empty runtime", {}],
    ["a negative port, which Go ignores", { vncPort: -1 }],
  ])("sends nothing for %s", async (_what, runtime) => {
    const { clients, calls } = core();
    const live = pod({ [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7", [Annotation.VNCPort]: "5900" });
    expect(await patchVMRuntime(clients, live, runtime)).toBe(live);
    expect(calls).toEqual([]);
  });

  it.each([
    [
      "a CocoonSet",
      { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonSet", metadata: { name: "s", namespace: "n" } },
      {},
      "ERR_INVALID_ARGUMENT",
    ],
    ["a pod without a namespace", { metadata: { name: "demo-0" } }, {}, "ERR_INVALID_ARGUMENT"],
    ["a runtime that is null", pod(), null, "ERR_INVALID_ARGUMENT"],
    ["a numeric vmID", pod(), { vmID: 7 }, "ERR_INVALID_ARGUMENT"],
    ["an ip that is not a string", pod(), { ip: ["10.0.0.1"] }, "ERR_INVALID_ARGUMENT"],
    ["a fractional port", pod(), { vncPort: 5900.5 }, "ERR_INVALID_INTEGER"],
    ["a port beyond int32", pod(), { vncPort: 2 ** 31 }, "ERR_INVALID_INTEGER"],
  ])("refuses %s before any request", async (_what, target, runtime, code) => {
    const { clients, calls } = core();
    const [got] = (await errorOf(patchVMRuntime(clients, target, runtime as never))) as [string, string];
    expect(got).toBe(code);
    expect(calls).toEqual([]);
  });

  it("names the field it refuses", async () => {
    const { clients } = core();
    expect(await errorOf(patchVMRuntime(clients, pod(), { vmID: 7 } as never))).toEqual([
      "ERR_INVALID_ARGUMENT",
      "patchVMRuntime: runtime.vmID must be a string, got number",
    ]);
    expect(await errorOf(patchVMRuntime(clients, pod(), { vncPort: 1.5 }))).toEqual([
      "ERR_INVALID_INTEGER",
      "patchVMRuntime: runtime.vncPort 1.5 is not an integer",
    ]);
  });
});
