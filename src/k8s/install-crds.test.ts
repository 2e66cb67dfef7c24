import type { CustomObjectsApi } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/index.js";
import { isCocoonError } from "../errors.js";
import { fakeApi, type Responder } from "./fakes.test-util.js";
import { installCRDs } from "./install-crds.js";

const status = (...conditions: { type: string; status: string; message?: string }[]) => ({ status: { conditions } });

function setup(respond: Responder) {
  const { api, calls } = fakeApi<CustomObjectsApi>(respond);
  return { clients: { customObjects: api }, calls };
}

describe("installCRDs", () => {
  it("applies both CRDs whole, then waits until each is Established", async () => {
    const polls = new Map<string, number>();
    const { clients, calls } = setup((method, params) => {
      if (method !== "getClusterCustomObject") return {};
      const name = params["name"] as string;
      const n = (polls.get(name) ?? 0) + 1;
      polls.set(name, n);
      return n < 3 ? status({ type: "NamesAccepted", status: "True" }) : status({ type: "Established", status: "True" });
    });
    await installCRDs(clients);
    const applies = calls.filter((c) => c.method === "patchClusterCustomObject");
    expect(applies.map((c) => c.params)).toEqual(
      [cocoonSetCRD, cocoonHibernationCRD].map((crd) => ({
        group: "apiextensions.k8s.io",
        version: "v1",
        plural: "customresourcedefinitions",
        name: crd.metadata.name,
        body: crd,
        fieldManager: "cocoon-common",
        force: true,
      })),
    );
    expect(applies.map((c) => c.contentType)).toEqual(["application/apply-patch+yaml", "application/apply-patch+yaml"]);
    expect(JSON.stringify(applies[0]?.params["body"])).toContain('"x-kubernetes-validations"');
    expect([...polls.values()]).toEqual([3, 3]);
    expect(calls.slice(0, 2).map((c) => c.method)).toEqual(["patchClusterCustomObject", "patchClusterCustomObject"]);
  });

  it("fails at once when the server refuses the names", async () => {
    const { clients } = setup((method) =>
      method === "getClusterCustomObject" ? status({ type: "NamesAccepted", status: "False", message: '"cs" is already in use' }) : {},
    );
    await expect(installCRDs(clients)).rejects.toSatisfy(
      (err) => isCocoonError(err, "ERR_INVALID_OBJECT") && /names not accepted.*"cs" is already in use/.test((err as Error).message),
    );
  });

  it("times out with a TimeoutError that says where it stood", async () => {
    const { clients } = setup((method) =>
      method === "getClusterCustomObject" ? status({ type: "Established", status: "False", message: "installing" }) : {},
    );
    const started = Date.now();
    const err = (await installCRDs(clients, { timeoutMs: 300 }).catch((e: unknown) => e)) as DOMException;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.name).toBe("TimeoutError");
    expect(err.message).toMatch(/not established within 300 ms.*cocoonsets\.cocoonset\.cocoonstack\.io: Established=False \(installing\)/);
  });

  it("rejects with the caller's reason when aborted", async () => {
    const controller = new AbortController();
    const { clients, calls } = setup(() => status());
    controller.abort(new Error("shutdown"));
    await expect(installCRDs(clients, { signal: controller.signal })).rejects.toThrow("shutdown");
    expect(calls).toHaveLength(0);
  });

  it("passes the apply error through", async () => {
    const { clients } = setup(() => {
      throw Object.assign(new Error("HTTP-Code: 403"), { code: 403 });
    });
    await expect(installCRDs(clients)).rejects.toMatchObject({ code: 403 });
  });
});
