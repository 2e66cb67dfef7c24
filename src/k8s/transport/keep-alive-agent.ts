import type http from "node:http";
import https from "node:https";
import { nodeHttp } from "../../internal/node-http.js";
import { sameSettings, settingsFingerprint } from "./settings-equality.js";

/** How a per-call agent made by client-node can be rebuilt as a shared keep-alive agent. */
export interface AgentTwin {
  /** Equal for agents that connect the same way (class, proxy, every TLS option). */
  readonly key: string;
  /** Builds the keep-alive equivalent: same class, same options, plus `extra` and `keepAlive: true`. */
  make(extra: http.AgentOptions): http.Agent;
}

/** The fields of an agent this module reads. Node keeps the constructor options on `agent.options`. */
interface AgentFields {
  options?: unknown;
  proxy?: unknown;
  proxyRequestOptions?: unknown;
}

/**
 * Describes how to share `agent`, or returns `undefined` for an agent this module does not know how
 * to rebuild (it is then used as is, once, exactly as client-node intended).
 *
 * Known: Node's `https.Agent` and `http.Agent` (no proxy), and hpagent's `HttpsProxyAgent` /
 * `HttpProxyAgent` (an `http(s)://` `proxy-url`), which take one options object with the proxy URL
 * in it. SOCKS agents are left alone.
 *
 * @internal
 */
export function agentTwin(agent: http.Agent): AgentTwin | undefined {
  const fields = agent as unknown as AgentFields;
  const options = fields.options;
  if (typeof options !== "object" || options === null) return undefined;
  const Ctor = agent.constructor as new (options: Record<string, unknown>) => http.Agent;
  let proxy: Record<string, unknown> = {};
  if (Ctor !== https.Agent && Ctor !== nodeHttp().Agent) {
    if (!(fields.proxy instanceof URL)) return undefined;
    proxy = { proxy: fields.proxy, proxyRequestOptions: fields.proxyRequestOptions };
  }
  const key = `${Ctor.name}|${settingsFingerprint({ ...options, ...proxy })}`;
  return { key, make: (extra) => new Ctor({ ...options, ...extra, ...proxy, keepAlive: true }) };
}

/**
 * Tells whether two agents connect the same way, cheaply: same class, and options, proxy and proxy
 * request options equal by content (buffers byte for byte, URLs by `href`, `undefined` fields
 * absent, any two functions alike). Never true where the {@link agentTwin} keys would differ (it may
 * be false where they are equal, e.g. a CA as a string and as a buffer), so it can stand in for
 * recomputing a key, which hashes the CA and certificates, on every request.
 *
 * @internal
 */
export function sameAgentSettings(a: http.Agent, b: http.Agent): boolean {
  if (a.constructor !== b.constructor) return false;
  const fa = a as unknown as AgentFields;
  const fb = b as unknown as AgentFields;
  return (
    sameSettings(fa.options, fb.options) && sameSettings(fa.proxy, fb.proxy) && sameSettings(fa.proxyRequestOptions, fb.proxyRequestOptions)
  );
}
