import { AppsV1Api, HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, PatchStrategy, RequestContext } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { callOptions } from "./call-options.js";
import { createClients } from "./clients.js";
import { applyOptions } from "./fakes.test-util.js";

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:6443", skipTLSVerify: false }, { name: "u", token: "t" });
  return kc;
}

describe("createClients", () => {
  it("builds every client on one configuration whose authentication shares agents", async () => {
    const clients = createClients(kubeConfig());
    expect(clients.configuration.baseServer.makeRequestContext("/api", HttpMethod.GET).getUrl()).toBe("https://127.0.0.1:6443/api");
    const auth = clients.configuration.authMethods.default!;
    const agents = [];
    for (let i = 0; i < 2; i++) {
      const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
      await auth.applySecurityAuthentication(context);
      expect(context.getHeaders()["Authorization"]).toBe("Bearer t");
      agents.push(context.getAgent());
    }
    expect(agents[1]).toBe(agents[0]);
    expect(clients.makeApiClient(AppsV1Api)).toBeInstanceOf(AppsV1Api);
    clients.close();
  });

  it('keeps client-node\'s own HTTP library unless told transport: "node"', () => {
    const byDefault = createClients(kubeConfig());
    const fetch = createClients(kubeConfig(), { transport: "fetch" });
    const node = createClients(kubeConfig(), { transport: "node" });
    expect(byDefault.configuration.httpApi).toBeInstanceOf(IsomorphicFetchHttpLibrary);
    expect(fetch.configuration.httpApi).toBeInstanceOf(IsomorphicFetchHttpLibrary);
    expect(node.configuration.httpApi).not.toBeInstanceOf(IsomorphicFetchHttpLibrary);
    expect(Object.keys(node.configuration.httpApi)).toEqual(["send"]);
  });

  it("refuses a KubeConfig without a current cluster", () => {
    let err: unknown;
    try {
      createClients(new KubeConfig());
    } catch (e) {
      err = e;
    }
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
  });
});

describe("callOptions", () => {
  it("is undefined when there is nothing to set", () => {
    expect(callOptions()).toBeUndefined();
  });

  it("sets the content type and the signal, appending to the client's middleware", async () => {
    const signal = new AbortController().signal;
    const options = callOptions({ contentType: PatchStrategy.MergePatch, signal });
    expect(options?.middlewareMergeStrategy).toBe("append");
    const context = await applyOptions(options);
    expect(context.getHeaders()["Content-Type"]).toBe("application/merge-patch+json");
    expect(context.getSignal()).toBe(signal);
  });
});
