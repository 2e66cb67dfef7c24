import { isIPv6 } from "node:net";
import { parseIPv4 } from "./registry-host.js";

/**
 * Splits `host[:port]` (IPv6 in brackets) into the bare host name and the port text.
 */
export function splitHostPort(registry: string): { host: string; port: string } {
  if (registry.startsWith("[")) {
    const close = registry.indexOf("]");
    return { host: registry.slice(1, close), port: registry.slice(close + 2) };
  }
  const colon = registry.lastIndexOf(":");
  if (colon < 0 || registry.indexOf(":") !== colon) return { host: registry, port: "" };
  return { host: registry.slice(0, colon), port: registry.slice(colon + 1) };
}

/** Reports whether `registry` (`host[:port]`) is this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export function isLoopback(registry: string): boolean {
  const { host } = splitHostPort(registry);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  // Only an IPv6 literal has a colon; the test spares every other host Node's IPv6 pattern, which
  // a process compiles on its first use (milliseconds of a first request).
  if (host.includes(":") && isIPv6(host)) return host === "::1" || /^(?:0{1,4}:){7}0{0,3}1$/.test(host);
  return parseIPv4(host)?.[0] === 127;
}

/**
 * Picks the scheme for a registry: plain HTTP only for a loopback host or one listed in `insecure`
 * (as `host` or `host:port`), HTTPS for everything else. Unlike go-containerregistry, RFC 1918
 * hosts get HTTPS, and there is never a fallback from HTTPS to HTTP.
 */
export function schemeFor(registry: string, insecure: readonly string[]): "http" | "https" {
  if (isLoopback(registry)) return "http";
  const { host } = splitHostPort(registry);
  return insecure.includes(registry) || insecure.includes(host) ? "http" : "https";
}
