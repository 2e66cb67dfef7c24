import { AppsV1Api, HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, PatchStrategy, RequestContext } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { callOptions } from "./call-options.js";
import { createClients } from "./clients.js";
import { clientNodeMajor, clientNodeVersion, requestAgent } from "./transport/index.js";
import { applyOptions } from "./fakes.test-util.js";

/** The connection client-node set on a request: an agent on client-node 1, an undici dispatcher on 2. */
function connectionOf(context: RequestContext): unknown {
  return clientNodeMajor === 1 ? requestAgent(context) : (context as unknown as { getDispatcher(): unknown }).getDispatcher();
}

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:6443", skipTLSVerify: true }, { name: "u", token: "t" });
  return kc;
}

describe("createClients", () => {
  it(`builds every client on one configuration whose authentication shares ${clientNodeMajor === 1 ? "agents" : "dispatchers"}`, async () => {
    const clients = createClients(kubeConfig());
    expect(clients.configuration.baseServer.makeRequestContext("/api", HttpMethod.GET).getUrl()).toBe("https://127.0.0.1:6443/api");
    const auth = clients.configuration.authMethods.default!;
    const agents = [];
    for (let i = 0; i < 2; i++) {
      const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
      await auth.applySecurityAuthentication(context);
      expect(context.getHeaders()["Authorization"]).toBe("Bearer t");
      agents.push(connectionOf(context));
    }
    expect(agents[0]).toBeDefined();
    expect(agents[1]).toBe(agents[0]);
    expect(clients.makeApiClient(AppsV1Api)).toBeInstanceOf(AppsV1Api);
    clients.close();
  });

  it("sends through client-node's own HTTP library", () => {
    const clients = createClients(kubeConfig());
    expect(clients.configuration.httpApi).toBeInstanceOf(IsomorphicFetchHttpLibrary);
    clients.close();
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

describe(`createClients on client-node ${String(clientNodeMajor)}`, () => {
  it(`sends ${clientNodeMajor >= 2 ? "client-node 2's own User-Agent, as its makeApiClient does" : "no User-Agent of its own (client-node 1's makeApiClient sets none)"}`, async () => {
    const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
    for (const middleware of createClients(kubeConfig()).configuration.middleware) await middleware.pre(context).toPromise();
    expect(context.getHeaders()["User-Agent"]).toBe(clientNodeMajor >= 2 ? `kubernetes-client-javascript/${clientNodeVersion}` : undefined);
    expect(clientNodeVersion).toMatch(new RegExp(`^${String(clientNodeMajor)}\\.\\d+\\.\\d+$`));
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
