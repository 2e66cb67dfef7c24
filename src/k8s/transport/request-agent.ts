import type { RequestContext } from "@kubernetes/client-node";
import type { AgentOption } from "./origin-pin.js";

/** client-node 1's agent accessors of `RequestContext`, which client-node 2's (undici dispatchers) lack. */
interface AgentAccessors {
  getAgent?(): AgentOption | undefined;
  setAgent?(agent: AgentOption): void;
}

/**
 * The agent on a client-node 1 request context; `undefined` when none is set or on client-node 2.
 * After {@link keepAliveAuthentication} it is a node-fetch agent function pinned to the request's origin.
 *
 * @internal
 */
export function requestAgent(context: RequestContext): AgentOption | undefined {
  const accessors = context as AgentAccessors;
  return typeof accessors.getAgent === "function" ? accessors.getAgent() : undefined;
}

/**
 * Sets the agent of a client-node 1 request context.
 *
 * @internal
 */
export function setRequestAgent(context: RequestContext, agent: AgentOption): void {
  (context as AgentAccessors).setAgent?.(agent);
}
