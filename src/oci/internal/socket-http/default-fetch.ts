import { socketFetch } from "./socket-fetch.js";

/**
 * The `fetch` a registry sends with when the caller gave none: each `GET` over
 * {@link socketFetch} (a connection of its own, each socket read copied once), everything else
 * with Node's own `fetch` (keep-alive, for a push's many `HEAD`s and uploads). A pull then never
 * runs Node's `fetch`, whose WebAssembly HTTP parser, once hot, is recompiled with about 17 MiB of
 * compiler memory. With `NODE_USE_ENV_PROXY` (or `--use-env-proxy`), which only Node's `fetch`
 * honors, everything goes through Node's `fetch`.
 */
export function defaultFetch(): typeof fetch {
  const nodeFetch = globalThis.fetch;
  const flag = "--use-env-proxy";
  const proxied =
    process.env["NODE_USE_ENV_PROXY"] === "1" || process.execArgv.includes(flag) || (process.env["NODE_OPTIONS"] ?? "").includes(flag);
  return proxied ? nodeFetch : socketFetch({ methods: ["GET"], fallback: nodeFetch });
}
