import type http from "node:http";
import type { RequestContext } from "@kubernetes/client-node";

/** client-node 1's agent accessors of `RequestContext`, which client-node 2's (undici dispatchers) lack. */
interface AgentAccessors {
  getAgent?(): http.Agent | undefined;
  setAgent?(agent: http.Agent): void;
}

/**
 * The agent on a client-node 1 request context; `undefined` when none is set or on client-node 2.
 *
 * @internal
 */
export function requestAgent(context: RequestContext): http.Agent | undefined {
  const accessors = context as AgentAccessors;
  return typeof accessors.getAgent === "function" ? accessors.getAgent() : undefined;
}

/**
 * Sets the agent of a client-node 1 request context.
 *
 * @internal
 */
export function setRequestAgent(context: RequestContext, agent: http.Agent): void {
  (context as AgentAccessors).setAgent?.(agent);
}
