import { SlabPool } from "../../../internal/body-slabs.js";
import { nodeFetchConfigured } from "./node-fetch-settings.js";
import { socketFetch } from "./socket-fetch.js";
import type { FetchedResponse, FetchInput } from "./socket-response.js";

/** Every method a registry client sends. */
const SOCKET_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The `fetch` a registry sends with when the caller gave none: every request over
 * {@link socketFetch} (a connection of its own, each socket read copied once, an upload's body
 * written as it comes). A push or a pull then never loads Node's `fetch` (undici and its
 * WebAssembly HTTP parser), which holds several MiB from its first request on and copies a
 * `Uint8Array` body (figures in the benchmarks). Once the process configures Node's `fetch` (a global
 * dispatcher, `NODE_USE_ENV_PROXY`; see {@link nodeFetchConfigured}), every request goes through
 * Node's `fetch`, so a proxy or a CA set for the process applies to all of them. `NODE_EXTRA_CA_CERTS`
 * needs no such care: it is part of the CAs Node's TLS trusts by default, which the socket client uses.
 * Each call builds a client of its own, with its own pool of body slabs: one registry's readers
 * never free or reuse another's.
 */
export function defaultFetch(): (input: FetchInput, init?: RequestInit) => Promise<FetchedResponse> {
  const nodeFetch = globalThis.fetch;
  const socket = socketFetch({ methods: SOCKET_METHODS, fallback: nodeFetch, slabs: new SlabPool() });
  return (input, init) => (nodeFetchConfigured() ? nodeFetch(input, init) : socket(input, init));
}
