import type http from "node:http";

/**
 * Node's `node:http`, taken from the running Node instead of imported: an ES import of it (default
 * or named) builds its module namespace from every export, and three of those (`WebSocket`,
 * `CloseEvent`, `MessageEvent`) are getters that load Node's whole undici bundle, which nothing
 * here uses. `node:https` has no such getters and is imported as usual.
 *
 * @internal
 */
export function nodeHttp(): typeof http {
  return process.getBuiltinModule("node:http");
}
