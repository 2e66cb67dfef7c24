/**
 * Connection tuning for client-node, in one place: keep-alive agents (client-node 1) and shared
 * undici dispatchers (client-node 2) behind one authentication method, and which client-node line
 * is installed. The domain operations of `src/k8s` import it through this module only.
 *
 * @module
 */
export { clientNodeMajor, clientNodeVersion } from "./client-node-line.js";
export { CrossOriginTypedLibrary } from "./cross-origin-errors.js";
export { keepAliveAuthentication } from "./keep-alive-authentication.js";
export type { KeepAliveAuthentication, KeepAliveOptions } from "./keep-alive-authentication.js";
export { requestAgent, setRequestAgent } from "./request-agent.js";
export type { AgentOption } from "./origin-pin.js";
