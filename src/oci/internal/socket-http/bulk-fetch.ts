import { socketFetch } from "./socket-fetch.js";

/**
 * The `fetch` blob bodies are read with when the caller gave none: {@link socketFetch}, unless
 * Node is told to send its `fetch` through the proxy the environment names (`NODE_USE_ENV_PROXY`,
 * `--use-env-proxy`), which only Node's own `fetch` honors.
 */
export function defaultBulkFetch(): typeof fetch {
  const flag = "--use-env-proxy";
  const proxied =
    process.env["NODE_USE_ENV_PROXY"] === "1" || process.execArgv.includes(flag) || (process.env["NODE_OPTIONS"] ?? "").includes(flag);
  return proxied ? globalThis.fetch : socketFetch({ fallback: globalThis.fetch });
}
