import { isIPv6 } from "node:net";

// Characters Go's net/url accepts unescaped in a host (its shouldEscape for encodeHost).
const HOST_SAFE = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"\u0080-\u{10FFFF}]*$/u;
const PORT = /^(?::\d*)?$/;
const LOCAL = /^.*\.localhost(?::\d{1,5})?$/;
const LOOPBACK_V4 = /^127\.0\.0\.1(?::\d{1,5})?$/;
const LOOPBACK_V6 = /^(?:::1|\[::1\](?::\d{1,5})?)$/;

/**
 * Reports whether Go's `url.Parse("//" + name)` yields exactly `name` as its host, the check
 * go-containerregistry's `NewRegistry` makes ("valid RFC 3986 URI authority").
 */
export function isURIAuthority(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- a control character cuts the host off
  if (/[\u0000-\u001f\u007f/?#@%]/.test(name)) return false; // cut off, split or unescaped: the host differs
  if (!HOST_SAFE.test(name)) return false;
  if (name.lastIndexOf("[") > 0) return false; // Go: "invalid IP-literal" (a bracket only opens an IPv6 host)
  if (name.startsWith("[")) {
    const close = name.lastIndexOf("]");
    if (close < 0 || !PORT.test(name.slice(close + 1))) return false;
    return isIPv6(name.slice(1, close));
  }
  const colon = name.lastIndexOf(":");
  return colon < 0 || PORT.test(name.slice(colon));
}

/**
 * The scheme go-containerregistry picks for a registry host: `http` for `localhost:*`,
 * `*.localhost`, `127.0.0.1`, `::1` and RFC 1918 addresses, else `https`.
 */
export function ggcrScheme(registry: string): "http" | "https" {
  if (isRFC1918(registry.split(":")[0] ?? "")) return "http";
  if (registry.startsWith("localhost:")) return "http";
  if (LOCAL.test(registry) || LOOPBACK_V4.test(registry) || LOOPBACK_V6.test(registry)) return "http";
  return "https";
}

function isRFC1918(host: string): boolean {
  const octets = parseIPv4(host);
  if (octets === undefined) return false;
  const [a, b] = octets as [number, number, number, number];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** Parses dotted-quad IPv4 the way Go's `net.ParseIP` does (no leading zeros). */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const octets = parts.map((p) => (/^(?:0|[1-9]\d{0,2})$/.test(p) ? Number(p) : NaN));
  return octets.every((o) => o <= 255) ? octets : undefined;
}
