import { BlockList, isIPv4 } from "node:net";
import { RegistryError } from "../errors.js";
import { schemeFor } from "./scheme.js";

// go-containerregistry's ipaddr.IsPrivateOrLinkLocal: loopback, private (RFC 1918, fc00::/7),
// link-local unicast and multicast, unspecified. IPv4-mapped IPv6 addresses match the IPv4 rules.
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["224.0.0.0", 24],
  ["0.0.0.0", 32],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["::", 128],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");
for (let flags = 0; flags < 16; flags++) PRIVATE.addSubnet(`ff${flags.toString(16)}2::`, 16, "ipv6"); // ffX2::/16, as Go's IsLinkLocalMulticast

/**
 * Parses and checks a bearer challenge's `realm` before any token request goes to it, as
 * go-containerregistry's `validateRealmURL` does: `https`, or `http` only for a host the client
 * may reach over plain HTTP ({@link schemeFor}: loopback or listed in `insecure`); and a realm on a
 * loopback, private (RFC 1918, `fc00::/7`), link-local or unspecified address only when it is the
 * registry's own host and port. Unlike Go, `localhost` and `*.localhost` count as loopback too, and
 * host and port are compared as URLs (`127.0.0.1:80` names `http://127.0.0.1`).
 *
 * @param realm - The challenge's `realm` parameter.
 * @param registry - The registry the challenge came from, `host[:port]`.
 * @param insecure - The hosts (`host` or `host:port`) the client may reach over plain HTTP.
 * @param what - The call, for the message.
 * @throws RegistryError `ERR_REGISTRY_UNAUTHORIZED` naming the realm's host (never the whole realm).
 */
export function tokenRealm(realm: string, registry: string, insecure: readonly string[], what: string): URL {
  const url = typeof realm === "string" ? URL.parse(realm) : null;
  if (url === null) throw refused(what, "the token realm is not a URL");
  const named = `the token realm host ${url.host}`;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw refused(what, `refusing ${named}: its scheme ${url.protocol} is neither https nor http`);
  }
  if (url.protocol === "http:" && schemeFor(url.host, insecure) !== "http") {
    throw refused(what, `refusing ${named}: plain HTTP to a host that is neither loopback nor listed as insecure`);
  }
  if (isInternal(url.hostname) && URL.parse(`${url.protocol}//${registry}`)?.host !== url.host) {
    throw refused(what, `refusing ${named}: a loopback, private or link-local address that is not the registry ${registry}`);
  }
  return url;
}

/** `hostname` as the WHATWG URL parser leaves it: canonical dotted IPv4, bracketed IPv6, or a lowercase name. */
function isInternal(hostname: string): boolean {
  if (hostname.startsWith("[")) return PRIVATE.check(hostname.slice(1, -1), "ipv6");
  if (isIPv4(hostname)) return PRIVATE.check(hostname, "ipv4");
  const name = hostname.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

function refused(what: string, detail: string): RegistryError {
  return new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: ${detail}`);
}
