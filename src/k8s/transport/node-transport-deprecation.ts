import { IsomorphicFetchHttpLibrary, type HttpLibrary } from "@kubernetes/client-node";

/** The `code` of the warning {@link warnNodeTransportIgnored} emits. */
export const NODE_TRANSPORT_WARNING_CODE = "COCOON_DEP_NODE_TRANSPORT";

let warned = false;

/**
 * Emits, once per process, a `DeprecationWarning` that the hand-written `node:https` transport
 * (`createClients`' `transport: "node"`, {@link createHttpsTransport}) is ignored.
 *
 * @internal
 */
export function warnNodeTransportIgnored(): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    'the node:https transport (createClients\' transport: "node", createHttpsTransport) is deprecated and ignored: ' +
      "requests go out through client-node's own HTTP library",
    { type: "DeprecationWarning", code: NODE_TRANSPORT_WARNING_CODE },
  );
}

/**
 * Returns client-node's own HTTP library (node-fetch in client-node 1, undici's `fetch` in 2),
 * the one client-node uses when `createConfiguration` is given no `httpApi`, and warns once
 * (`COCOON_DEP_NODE_TRANSPORT`).
 *
 * @deprecated The hand-written `node:https` transport is gone: requests go out through client-node's
 * own HTTP library, which sends client-node's `User-Agent`, follows redirects and fails with
 * client-node's errors. Drop the `httpApi` setting; this function is removed in the next minor release.
 * @example
 * ```ts
 * const configuration = createConfiguration({
 *   baseServer: new ServerConfiguration(kubeConfig.getCurrentCluster()!.server, {}),
 *   authMethods: { default: keepAliveAuthentication(kubeConfig) }, // no httpApi: client-node's own
 * });
 * ```
 */
export function createHttpsTransport(): HttpLibrary {
  warnNodeTransportIgnored();
  return new IsomorphicFetchHttpLibrary();
}
