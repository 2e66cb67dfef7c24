import { RegistryError } from "../errors.js";
import { transportError } from "./registry-http-error.js";
import { schemeFor, splitHostPort } from "./scheme.js";
import type { RegistryFetch, RegistryResponse } from "./registry-response.js";
import { discardBody } from "./body.js";

/** Redirects followed per request before giving up, as Go's `http.Client` does. */
export const MAX_REDIRECTS = 10;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Who may receive what while a request follows redirects. */
export interface HopPolicy {
  readonly fetch: RegistryFetch;
  /** Hosts that may be spoken to over plain HTTP, besides loopback. */
  readonly insecure: readonly string[];
  /** `host[:port]` of the server the request is for: the only one that gets `authorization`. */
  readonly home: string;
  /** The `Authorization` header, sent only to {@link home}, and only on the first hop when `authFirstHopOnly`. */
  readonly authorization: string | undefined;
  readonly authFirstHopOnly?: boolean;
  /** Whether the body (a byte array, or none) can be sent again on a 307/308. */
  readonly replayable: boolean;
  readonly what: string;
  /** Further checks on each hop after the first, before anything is sent to it (a token realm's rule). */
  readonly checkHop?: (url: URL) => void;
}

/** A request as {@link fetchFollowing} sends it: its headers a plain record, never a `Headers` (which loads Node's undici). */
export type RedirectableInit = Omit<RequestInit, "headers"> & { headers?: Readonly<Record<string, string>>; duplex?: "half" };

/** The last answer of a redirect chain. */
export interface FollowedResponse {
  readonly response: RegistryResponse;
  /** Whether the answer came after at least one redirect. */
  readonly redirected: boolean;
  /** The URL that gave the answer. */
  readonly url: URL;
}

/**
 * Sends a request with `redirect: "manual"` and follows redirects itself, so each hop is checked
 * before anything is sent to it: `authorization` goes only to the home host (same host and port,
 * go-containerregistry's `matchesHost`), nothing goes over plain HTTP unless both the home host and
 * the hop's host may be spoken to that way (loopback or `insecure`), and an HTTPS hop never leads to
 * an HTTP one. GET and HEAD follow every redirect; other methods only a 307/308 whose body can be
 * sent again; anything else is returned as it is (the caller turns it into a status error).
 *
 * @throws RegistryError `ERR_REGISTRY_TRANSPORT` for a refused hop or too many redirects; a
 * `fetch` rejection is passed through as it is.
 */
export async function fetchFollowing(url: string, init: RedirectableInit, policy: HopPolicy): Promise<FollowedResponse> {
  let target = new URL(url);
  const method = init.method ?? "GET";
  const safe = method === "GET" || method === "HEAD";
  for (let hop = 0; ; hop++) {
    checkPlainHTTP(target, policy);
    const headers = lowerCased(init.headers);
    if (policy.authorization !== undefined && sameHost(target, policy.home) && (hop === 0 || policy.authFirstHopOnly !== true)) {
      headers["authorization"] = policy.authorization;
    }
    const response = await policy.fetch(target.href, { ...init, headers, redirect: "manual" });
    const location = response.headers.get("location");
    const follow =
      REDIRECTS.has(response.status) &&
      location !== null &&
      (safe || ((response.status === 307 || response.status === 308) && policy.replayable));
    if (!follow) return { response, redirected: hop > 0, url: target };
    await discardBody(response).catch(() => undefined);
    if (hop + 1 > MAX_REDIRECTS) {
      throw new RegistryError("ERR_REGISTRY_TRANSPORT", `${policy.what}: stopped after ${MAX_REDIRECTS} redirects`, {
        request: `${method} ${url}`,
      });
    }
    let next: URL;
    try {
      next = new URL(location, target);
    } catch (err) {
      throw transportError(policy.what, `${method} ${target.href}`, err);
    }
    if (next.protocol !== "https:" && next.protocol !== "http:") {
      throw new RegistryError("ERR_REGISTRY_TRANSPORT", `${policy.what}: refusing a redirect to a ${next.protocol} URL`, {
        request: `${method} ${target.href}`,
      });
    }
    if (target.protocol === "https:" && next.protocol === "http:") {
      throw new RegistryError("ERR_REGISTRY_TRANSPORT", `${policy.what}: refusing a redirect from HTTPS to plain HTTP (${next.host})`, {
        request: `${method} ${target.href}`,
      });
    }
    policy.checkHop?.(next);
    target = next;
  }
}

/** Refuses plain HTTP to a host that is not loopback or `insecure`, or for a home host that gets HTTPS. */
export function checkPlainHTTP(target: URL, policy: Pick<HopPolicy, "insecure" | "home" | "what">): void {
  if (target.protocol !== "http:") return;
  if (schemeFor(target.host, policy.insecure) === "http" && schemeFor(policy.home, policy.insecure) === "http") return;
  throw new RegistryError(
    "ERR_REGISTRY_TRANSPORT",
    `${policy.what}: refusing plain HTTP to ${target.host} (not loopback, not in insecure)`,
    {
      request: `${target.origin}${target.pathname}`,
    },
  );
}

/** Whether `url` is on `home` (`host[:port]`), the default port filled in from the URL's scheme. */
export function sameHost(url: URL, home: string): boolean {
  const { host, port } = splitHostPort(home);
  const defaultPort = url.protocol === "https:" ? "443" : "80";
  const urlHost = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return urlHost.toLowerCase() === host.toLowerCase() && (url.port || defaultPort) === (port || defaultPort);
}

/** `headers` with lower-cased names, names that differ only in case joined as `Headers` joins them. */
function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const key = name.toLowerCase();
    const had = out[key];
    out[key] = had === undefined ? value : `${had}, ${value}`;
  }
  return out;
}
