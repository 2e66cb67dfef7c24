import type https from "node:https";
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext } from "@kubernetes/client-node";
import type { ControlPlaneConnection } from "../src/testing/index.js";
import type { RawPatcher } from "./raw-patch.js";
import { setRequestAgent } from "../src/k8s/transport/index.js";

/**
 * Merge patches through client-node's HTTP layer alone (`IsomorphicFetchHttpLibrary`: node-fetch and
 * `ResponseContext`) on a given agent: no typed API, ObjectSerializer, middleware or authentication.
 * What it costs above {@link rawPatcher} is client-node's HTTP library; what the typed API costs above
 * it is the rest of client-node's pipeline.
 */
export function fetchPatcher(connection: ControlPlaneConnection, agent: https.Agent): Pick<RawPatcher, "patch"> {
  const library = new IsomorphicFetchHttpLibrary();
  const authorization = `Bearer ${connection.adminToken}`;
  return {
    async patch(path, body) {
      const context = new RequestContext(`${connection.server}${path}`, HttpMethod.PATCH);
      context.setHeaderParam("Authorization", authorization);
      context.setHeaderParam("Accept", "application/json");
      context.setHeaderParam("Content-Type", "application/merge-patch+json");
      context.setBody(JSON.stringify(body));
      setRequestAgent(context, agent);
      const response = await library.send(context).toPromise();
      const text = await response.body.text();
      if (response.httpStatusCode < 200 || response.httpStatusCode > 299)
        throw new Error(`PATCH ${path}: HTTP ${response.httpStatusCode}: ${text}`);
      return JSON.parse(text) as never;
    },
  };
}
