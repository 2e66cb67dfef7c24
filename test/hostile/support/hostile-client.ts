import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { Agent, fetch as undiciFetch } from "undici";
import { OCIRegistry, type OCIRegistryOptions } from "../../../src/oci/index.js";
import { SlabPool } from "../../../src/internal/body-slabs.js";
import { socketFetch } from "../../../src/oci/internal/socket-http/socket-fetch.js";

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Resolves every `*.test` name to 127.0.0.1 and everything else as the system does, so peers on
 * loopback are distinct hosts to the client (and none of their names looks like loopback).
 */
function lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  if (!hostname.endsWith(".test")) {
    dnsLookup(hostname, options, callback as never);
    return;
  }
  if (options.all === true) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}

/**
 * A `fetch` that trusts only `ca` and resolves `*.test` to loopback; `close` ends its connections.
 * With `COCOON_HOSTILE_FETCH=socket` (the `hostile-socket` test project) `GET` and `HEAD` go
 * through the package's own HTTP/1.1 client, the one `getBlob` uses by default, under the same rules.
 */
export function hostileFetch(ca: string): { fetch: typeof fetch; close: () => Promise<void> } {
  const agent = new Agent({ connect: { ca, lookup: lookup as never }, keepAliveTimeout: 1_000 });
  const fetchVia = ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown;
  const viaUndici = fetchVia as typeof fetch;
  const chosen =
    process.env["COCOON_HOSTILE_FETCH"] === "socket"
      ? // The registry reads only what a `Response` and the socket client's answer share.
        (socketFetch({ ca, lookup: lookup as never, fallback: viaUndici, slabs: new SlabPool() }) as unknown as typeof fetch)
      : viaUndici;
  return { fetch: chosen, close: () => agent.close() };
}

/** An {@link OCIRegistry} that speaks to the hostile peers through `fetchFn`. */
export function hostileRegistry(base: string, fetchFn: typeof fetch, options: OCIRegistryOptions = {}): OCIRegistry {
  return new OCIRegistry(base, { retries: 0, timeoutMs: 2_000, ...options, fetch: fetchFn });
}
