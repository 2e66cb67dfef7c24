import http from "node:http";
import https from "node:https";
import { HttpMethod, KubeConfig, RequestContext } from "@kubernetes/client-node";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientNodeMajor } from "./client-node-line.js";
import { agentTwin, sameAgentSettings } from "./keep-alive-agent.js";
import { requestAgent } from "./request-agent.js";

/** The agent client-node makes for a cluster behind `proxyUrl` (hpagent's `HttpsProxyAgent`). */
async function proxiedAgent(proxyUrl: string): Promise<http.Agent> {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:6443", skipTLSVerify: false, proxyUrl }, { name: "u", token: "t" });
  const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
  await kc.applySecurityAuthentication(context);
  return requestAgent(context) as http.Agent; // the KubeConfig sets an agent object; only keepAliveAuthentication pins it as a function
}

const pem = (text: string): Buffer => Buffer.from(`-----BEGIN CERTIFICATE-----\n${text.repeat(40)}\n-----END CERTIFICATE-----\n`);

describe("sameAgentSettings", () => {
  it("is true for agents made from equal options, whatever the buffer instances", () => {
    const make = () => new https.Agent({ ca: pem("A"), cert: pem("C"), rejectUnauthorized: true, servername: "kube" });
    expect(sameAgentSettings(make(), make())).toBe(true);
  });

  it("treats an undefined option as absent, as client-node leaves unset TLS fields undefined", () => {
    expect(sameAgentSettings(new https.Agent({ ca: pem("A"), cert: undefined }), new https.Agent({ ca: pem("A") }))).toBe(true);
  });

  it.each([
    ["ca", { ca: pem("A") }, { ca: pem("B") }],
    ["ca of another length", { ca: pem("A") }, { ca: Buffer.concat([pem("A"), pem("A")]) }],
    ["client certificate", { cert: pem("A") }, { cert: pem("B") }],
    ["client key present or not", { key: pem("A") }, {}],
    ["verification", { rejectUnauthorized: true }, { rejectUnauthorized: false }],
    ["server name", { servername: "a" }, { servername: "b" }],
    ["ALPN list", { ALPNProtocols: ["http/1.1"] }, { ALPNProtocols: ["h2"] }],
  ])("is false for a different %s, where the agentTwin keys differ too", (_name, a, b) => {
    const [x, y] = [new https.Agent(a), new https.Agent(b)];
    expect(sameAgentSettings(x, y)).toBe(false);
    expect(agentTwin(x)?.key).not.toBe(agentTwin(y)?.key);
  });

  it("is false across agent classes", () => {
    expect(sameAgentSettings(new https.Agent({}), new http.Agent({}))).toBe(false);
  });

  it.runIf(clientNodeMajor === 1)("compares hpagent proxy URLs by href (client-node 1 only: client-node 2 has no agents)", async () => {
    const agent = await proxiedAgent("http://proxy.example:3128");
    expect(agent.constructor.name).toBe("HttpsProxyAgent");
    expect(sameAgentSettings(agent, await proxiedAgent("http://proxy.example:3128"))).toBe(true);
    expect(sameAgentSettings(agent, await proxiedAgent("http://other.example:3128"))).toBe(false);
  });

  it("never says equal where the agentTwin keys differ, and says equal for equal options", () => {
    const value = fc.option(fc.constantFrom(pem("A"), pem("B"), "short", "x".repeat(80), true, false, 0, ["h2"], ["h2", "http/1.1"]), {
      nil: undefined,
    });
    const keys = ["ca", "cert", "key", "servername", "rejectUnauthorized"] as const;
    const options = fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
    // b is a with at most one field changed, so that near misses are frequent
    const pair = fc.tuple(options, fc.constantFrom(...keys), value).map(([a, k, v]) => [a, { ...a, [k]: v }] as const);
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const [x, y] = [new https.Agent(a), new https.Agent(b)];
        if (sameAgentSettings(x, y)) expect(agentTwin(x)?.key).toBe(agentTwin(y)?.key);
        expect(sameAgentSettings(x, new https.Agent(structuredClone(a) as https.AgentOptions))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
