import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";

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
  if (Ctor !== https.Agent && Ctor !== http.Agent) {
    if (!(fields.proxy instanceof URL)) return undefined;
    proxy = { proxy: fields.proxy, proxyRequestOptions: fields.proxyRequestOptions };
  }
  const key = `${Ctor.name}|${fingerprint({ ...options, ...proxy })}`;
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
  return sameValue(fa.options, fb.options) && sameValue(fa.proxy, fb.proxy) && sameValue(fa.proxyRequestOptions, fb.proxyRequestOptions);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return typeof a === "function" && typeof b === "function";
  if (a instanceof Uint8Array || b instanceof Uint8Array)
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in b) || !sameValue(a[i], b[i])) return false; // a hole: not judged here
    return true;
  }
  let defined = 0; // own fields that are not undefined: counted up over a, down over b
  for (const key in a) {
    const value = own(a, key);
    if (value === undefined) continue;
    defined++;
    if (!sameValue(value, own(b, key))) return false;
  }
  for (const key in b) if (own(b, key) !== undefined) defined--;
  return defined === 0;
}

function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** A stable text for a value: keys sorted, binary data and PEM text hashed, `undefined` dropped. */
function fingerprint(value: unknown): string {
  if (value instanceof URL) return JSON.stringify(value.href);
  if (value instanceof Uint8Array) return `sha256:${createHash("sha256").update(value).digest("hex")}`;
  if (typeof value === "string" && value.length > 64) return `sha256:${createHash("sha256").update(value).digest("hex")}`;
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v)}`).join(",")}}`;
  }
  if (typeof value === "function") return "fn";
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for a symbol
  return JSON.stringify(value) ?? "undefined";
}
