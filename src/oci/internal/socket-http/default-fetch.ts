import { SlabPool } from "../../../internal/body-slabs.js";
import { nodeFetchConfigured } from "./node-fetch-settings.js";
import { socketFetch } from "./socket-fetch.js";

/**
 * The `fetch` a registry sends with when the caller gave none: each `GET` over {@link socketFetch}
 * (a connection of its own, each socket read copied once), everything else with Node's own `fetch`
 * (keep-alive, for a push's many `HEAD`s and uploads). A pull then never runs Node's `fetch`, whose
 * WebAssembly HTTP parser, once hot, is recompiled with about 17 MiB of compiler memory; see
 * BENCHMARKS.md for what that is worth. Once the process configures Node's `fetch` (a global
 * dispatcher, `NODE_USE_ENV_PROXY`; see {@link nodeFetchConfigured}), every request goes through
 * Node's `fetch`, so a proxy or a CA set for the process applies to all of them. `NODE_EXTRA_CA_CERTS`
 * needs no such care: it is part of the CAs Node's TLS trusts by default, which the socket client uses.
 * Each call builds a client of its own, with its own pool of body slabs: one registry's readers
 * never free or reuse another's.
 */
export function defaultFetch(): typeof fetch {
  const nodeFetch = globalThis.fetch;
  const socket = socketFetch({ methods: ["GET"], fallback: nodeFetch, slabs: new SlabPool() });
  return (input, init) => (nodeFetchConfigured() ? nodeFetch(input, init) : socket(input, init));
}
