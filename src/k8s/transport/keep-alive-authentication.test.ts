import http from "node:http";
import https from "node:https";
import { HttpMethod, KubeConfig, RequestContext, type Cluster, type User } from "@kubernetes/client-node";
import { describe, expect, it, vi } from "vitest";
import { clientNodeMajor } from "./client-node-line.js";
import { agentTwin } from "./keep-alive-agent.js";
import { keepAliveAuthentication } from "./keep-alive-authentication.js";
import { requestAgent } from "./request-agent.js";

const PEM_A = Buffer.from("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").toString("base64");
const PEM_B = Buffer.from("-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n").toString("base64");

function kubeConfig(cluster: Partial<Cluster> = {}, user: Partial<User> = { token: "t0" }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: "c", server: "https://127.0.0.1:6443", caData: PEM_A, skipTLSVerify: false, ...cluster },
    { name: "u", ...user },
  );
  return kc;
}

async function authenticate(auth: { applySecurityAuthentication(ctx: RequestContext): void | Promise<void> }) {
  const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
  await auth.applySecurityAuthentication(context);
  // The context holds the agent as node-fetch's agent function, pinned to the request's origin.
  const option = requestAgent(context);
  return {
    agent: (typeof option === "function" ? option(new URL(context.getUrl())) : option) as http.Agent & {
      keepAlive?: boolean;
      options?: Record<string, unknown>;
    },
    headers: context.getHeaders(),
  };
}

describe.runIf(clientNodeMajor === 1)(
  "keepAliveAuthentication on client-node 1's agents (not run on client-node 2, which has none: see shared-dispatchers.test.ts)",
  () => {
    it("gives every request the same keep-alive https agent, with the KubeConfig's credentials", async () => {
      const auth = keepAliveAuthentication(kubeConfig());
      const first = await authenticate(auth);
      const second = await authenticate(auth);
      expect(second.agent).toBe(first.agent);
      expect(first.agent).toBeInstanceOf(https.Agent);
      expect(first.agent.keepAlive).toBe(true);
      expect(first.agent.options).toMatchObject({ keepAlive: true, timeout: 60_000 });
      expect(Buffer.from(first.agent.options?.["ca"] as Buffer).toString("base64")).toBe(PEM_A);
      expect(first.headers["Authorization"]).toBe("Bearer t0");
      auth.close();
    });

    it("authenticates every request anew, so a changed token applies at once", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const before = await authenticate(auth);
      kc.users[0] = { ...kc.users[0]!, token: "t1" };
      const after = await authenticate(auth);
      expect(after.headers["Authorization"]).toBe("Bearer t1");
      expect(after.agent).toBe(before.agent);
    });

    it("keeps one agent per TLS setting", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const a = await authenticate(auth);
      kc.clusters[0] = { ...kc.clusters[0]!, caData: PEM_B };
      const b = await authenticate(auth);
      kc.clusters[0] = { ...kc.clusters[0], caData: PEM_A };
      const again = await authenticate(auth);
      expect(b.agent).not.toBe(a.agent);
      expect(again.agent).toBe(a.agent);
    });

    it("merges agentOptions but always keeps alive", async () => {
      const auth = keepAliveAuthentication(kubeConfig(), { agentOptions: { maxSockets: 4, keepAlive: false, timeout: 5_000 } });
      const { agent } = await authenticate(auth);
      expect(agent.maxSockets).toBe(4);
      expect(agent.options).toMatchObject({ keepAlive: true, timeout: 5_000 });
    });

    it("shares a plain http agent for an http server with insecure-skip-tls-verify", async () => {
      const auth = keepAliveAuthentication(kubeConfig({ server: "http://127.0.0.1:8080", skipTLSVerify: true }));
      const first = await authenticate(auth);
      expect(first.agent.constructor).toBe(http.Agent);
      expect((await authenticate(auth)).agent).toBe(first.agent);
    });

    it("shares hpagent's proxy agent for an http proxy-url", async () => {
      const auth = keepAliveAuthentication(kubeConfig({ proxyUrl: "http://proxy.example:3128" }));
      const first = await authenticate(auth);
      const agent = first.agent as typeof first.agent & { proxy?: URL };
      expect(agent.constructor.name).toBe("HttpsProxyAgent");
      expect(agent.proxy?.href).toBe("http://proxy.example:3128/");
      expect(agent.keepAlive).toBe(true);
      expect((await authenticate(auth)).agent).toBe(first.agent);
    });

    it("leaves a SOCKS proxy agent as client-node made it, one per request", async () => {
      const auth = keepAliveAuthentication(kubeConfig({ proxyUrl: "socks5://proxy.example:1080" }));
      const first = await authenticate(auth);
      expect(first.agent.constructor.name).toBe("SocksProxyAgent");
      expect((await authenticate(auth)).agent).not.toBe(first.agent);
    });

    it("keeps 16 settings: past them the oldest is dropped, not destroyed, and a new agent made on return is closed by close()", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const withCa = async (i: number) => {
        kc.clusters[0] = {
          ...kc.clusters[0]!,
          caData: Buffer.from(`-----BEGIN CERTIFICATE-----\nCA${i}\n-----END CERTIFICATE-----\n`).toString("base64"),
        };
        return (await authenticate(auth)).agent;
      };
      const first = await withCa(0);
      const destroyFirst = vi.spyOn(first, "destroy");
      for (let i = 1; i < 16; i++) await withCa(i);
      expect(await withCa(0)).toBe(first); // 16 settings: all still shared
      await withCa(16); // the 17th drops the oldest entry
      const back = await withCa(0);
      expect(back).not.toBe(first);
      expect(back.options?.["ca"]).toEqual(first.options?.["ca"]);
      expect(destroyFirst).not.toHaveBeenCalled();
      const destroyBack = vi.spyOn(back, "destroy");
      auth.close();
      expect(destroyBack).toHaveBeenCalledTimes(1);
      expect(destroyFirst).not.toHaveBeenCalled();
    });

    it("closes its agents; the next request gets a new one", async () => {
      const auth = keepAliveAuthentication(kubeConfig());
      const first = await authenticate(auth);
      auth.close();
      expect((await authenticate(auth)).agent).not.toBe(first.agent);
    });
  },
);

describe("agentTwin", () => {
  it("keys equal options equally, whatever the buffer instances", () => {
    const make = () => new https.Agent({ ca: Buffer.from("x".repeat(100)), rejectUnauthorized: true });
    expect(agentTwin(make())?.key).toBe(agentTwin(make())?.key);
  });

  it.each([
    ["ca", { ca: Buffer.from("a") }, { ca: Buffer.from("b") }],
    ["client certificate", { cert: Buffer.from("a") }, { cert: Buffer.from("b") }],
    ["verification", { rejectUnauthorized: true }, { rejectUnauthorized: false }],
    ["server name", { servername: "a" }, { servername: "b" }],
  ])("keys a different %s differently", (_name, a, b) => {
    expect(agentTwin(new https.Agent(a))?.key).not.toBe(agentTwin(new https.Agent(b))?.key);
  });

  it("does not rebuild an agent of an unknown class", () => {
    class Custom extends http.Agent {}
    expect(agentTwin(new Custom())).toBeUndefined();
  });
});
