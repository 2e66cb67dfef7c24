import type { CoreV1Api } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { Annotation } from "../meta/index.js";
import { STATUS_SUCCESS, apiError, fakeApi, servedAs, type Responder } from "./fakes.test-util.js";
import { releaseSeat } from "./release-seat.js";

const pod = (annotations?: Record<string, string>, uid?: string) => ({
  metadata: { name: "vk-ns-demo-0", namespace: "ns", ...(uid && { uid }), ...(annotations && { annotations }) },
});
/** The server's answers: the pod itself to the flag, a `Status` to the delete. */
const served =
  (uid?: string): Responder =>
  (method, params) =>
    method === "deleteNamespacedPod" ? STATUS_SUCCESS : servedAs(params, uid);
const FLAG = { metadata: { annotations: { [Annotation.KeepSnapshotOnDelete]: "true" } } };

function setup(respond: Responder) {
  const { api, calls } = fakeApi<CoreV1Api>(respond);
  const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const logger = { error: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }) };
  return { clients: { core: api }, calls, logged, logger };
}

describe("releaseSeat", () => {
  it("flags, then deletes", async () => {
    const { clients, calls, logged, logger } = setup(served());
    expect(await releaseSeat(clients, pod(), { logger })).toEqual({ flagged: true, deletion: "deleted" });
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ["patchNamespacedPod", { name: "vk-ns-demo-0", namespace: "ns", body: FLAG }],
      ["deleteNamespacedPod", { name: "vk-ns-demo-0", namespace: "ns" }],
    ]);
    expect(calls[0]?.contentType).toBe("application/merge-patch+json");
    expect(logged).toEqual([]);
  });

  it("skips the flag request when the pod is already flagged", async () => {
    const { clients, calls } = setup(served());
    expect(await releaseSeat(clients, pod({ [Annotation.KeepSnapshotOnDelete]: "true" }))).toEqual({ flagged: true, deletion: "deleted" });
    expect(calls.map((c) => c.method)).toEqual(["deleteNamespacedPod"]);
  });

  it("logs a failed flag at error level and still deletes", async () => {
    const denied = apiError(422, "Invalid", "denied by policy");
    const { clients, calls, logged, logger } = setup((method) => {
      if (method === "patchNamespacedPod") throw denied;
      return STATUS_SUCCESS;
    });
    expect(await releaseSeat(clients, pod(), { logger })).toEqual({ flagged: false, flagError: denied, deletion: "deleted" });
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPod", "deleteNamespacedPod"]);
    expect(logged).toEqual([
      {
        message: `flag pod ns/vk-ns-demo-0 ${Annotation.KeepSnapshotOnDelete} before releasing its seat: 422 denied by policy`,
        fields: { err: denied, pod: "ns/vk-ns-demo-0", annotation: Annotation.KeepSnapshotOnDelete },
      },
    ]);
  });

  it("treats a 404 on the flag as released, without a delete", async () => {
    const { clients, calls, logged, logger } = setup(() => {
      throw apiError(404, "NotFound");
    });
    expect(await releaseSeat(clients, pod(), { logger })).toEqual({ flagged: false, deletion: "already-gone" });
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPod"]);
    expect(logged).toEqual([]);
  });

  it("treats a 404 on the delete as released", async () => {
    const { clients } = setup((method, params) => {
      if (method === "deleteNamespacedPod") throw apiError(404, "NotFound");
      return servedAs(params);
    });
    expect(await releaseSeat(clients, pod())).toEqual({ flagged: true, deletion: "already-gone" });
  });

  it("deletes with a uid precondition, and a failed precondition means already gone", async () => {
    const { clients, calls } = setup((method, params) => {
      if (method === "deleteNamespacedPod")
        throw apiError(409, "Conflict", "Precondition failed: UID in precondition: u1, UID in object meta: u2");
      return servedAs(params, "u1");
    });
    expect(await releaseSeat(clients, pod(undefined, "u1"))).toEqual({ flagged: true, deletion: "already-gone" });
    expect(calls[1]?.params).toEqual({ name: "vk-ns-demo-0", namespace: "ns", body: { preconditions: { uid: "u1" } } });
  });

  it("does not delete a newer pod that took the name", async () => {
    const { clients, calls } = setup(served("newer"));
    expect(await releaseSeat(clients, pod(undefined, "older"))).toEqual({ flagged: false, deletion: "already-gone" });
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPod"]);
  });

  it("rejects when the delete fails for another reason", async () => {
    const { clients } = setup((method, params) => {
      if (method === "deleteNamespacedPod") throw apiError(403, "Forbidden");
      return servedAs(params);
    });
    await expect(releaseSeat(clients, pod())).rejects.toMatchObject({ code: 403 });
  });

  it("never sends the delete once aborted", async () => {
    const controller = new AbortController();
    const { clients, calls } = setup(() => {
      controller.abort(new Error("shutting down"));
      throw new Error("aborted");
    });
    await expect(releaseSeat(clients, pod(), { signal: controller.signal })).rejects.toThrow("shutting down");
    expect(calls.map((c) => c.method)).toEqual(["patchNamespacedPod"]);
  });

  it("refuses a CocoonSet", async () => {
    const { clients, calls } = setup(() => ({}));
    await expect(releaseSeat(clients, { kind: "CocoonSet", metadata: { name: "s", namespace: "ns" } })).rejects.toThrow(/takes a Pod/);
    expect(calls).toHaveLength(0);
  });
});
