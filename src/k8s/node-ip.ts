// Node IP detection (Go's `DetectNodeIP` and `ErrNoNodeIP`).
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";
import { CocoonError } from "../errors.js";

/** The shape of `os.networkInterfaces()`: interface name → its addresses. */
export type NetworkInterfaceMap = Readonly<Record<string, readonly NetworkInterfaceInfo[] | undefined>>;

/** Go's `ErrNoNodeIP` text. */
const NO_NODE_IP_MESSAGE = "no non-loopback IPv4 address found";

/**
 * Thrown by {@link detectNodeIP} when no interface has a non-loopback IPv4 address (Go's `ErrNoNodeIP`).
 *
 * Recognise it by `err.name === "NoNodeIPError"`, which works across duplicate installs.
 */
export class NoNodeIPError extends CocoonError {
  /** Always `NoNodeIPError`. */
  override name = "NoNodeIPError";

  /** Creates the error with Go's message, `no non-loopback IPv4 address found`. */
  constructor() {
    super("ERR_NO_NODE_IP", NO_NODE_IP_MESSAGE);
  }
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`), which Go's `To4()` also accepts. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address as dotted-quad IPv4, or `undefined` when it has no IPv4 form. */
function ipv4Of(info: NetworkInterfaceInfo): string | undefined {
  // Node 18.0–18.3 reported the family as a number.
  const family = info.family as string | number;
  if (family === "IPv4" || family === 4) return info.address;
  return IPV4_MAPPED.exec(info.address)?.[1];
}

/**
 * Returns the first non-loopback IPv4 address of this host, as dotted-quad text.
 *
 * Walks interfaces in the order `os.networkInterfaces()` lists them and each interface's
 * addresses in order. On Linux that order comes from `getifaddrs` (the kernel's netlink dump,
 * by interface index), the same order Go's `net.InterfaceAddrs` walks, so both pick the same
 * address; sorting by name would not (`docker0` before `eth0`). The only deviation: JavaScript
 * lists integer-like names (`"0"`) first. As in Go, loopback means the address (127.0.0.0/8),
 * not the interface's `internal` flag, and link-local or bridge addresses are not skipped.
 *
 * @param interfaces - The interface map; defaults to `os.networkInterfaces()`.
 * @throws {@link NoNodeIPError} when there is no such address.
 * @example
 * ```ts
 * const nodeIP = detectNodeIP(); // e.g. "10.0.0.12"
 * ```
 */
export function detectNodeIP(interfaces: NetworkInterfaceMap = networkInterfaces()): string {
  for (const addresses of Object.values(interfaces)) {
    for (const info of addresses ?? []) {
      const ip = ipv4Of(info);
      if (ip !== undefined && !ip.startsWith("127.")) return ip;
    }
  }
  throw new NoNodeIPError();
}
