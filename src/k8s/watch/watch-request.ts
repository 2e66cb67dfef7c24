import { ApiException, HttpMethod, RequestContext, type Configuration, type KubeConfig } from "@kubernetes/client-node";
import { sendContextGet } from "./context-get.js";
import type { RefusalError, WatchRequester } from "./watch-requester.js";

/** A refusal as client-node's `ApiException`, as its lists throw. @internal */
export const apiExceptionRefusal: RefusalError = (code, message, status) => new ApiException(code, message, status, {});

/**
 * Watch requests authenticated as the lists are: by the configuration's default authentication
 * (for {@link createClients}' configuration, the shared keep-alive agents of client-node 1 or
 * dispatchers of client-node 2), or by the `KubeConfig` itself. The body is handed back as bytes
 * rather than to client-node's `Watch`, which splits lines without a bound and drops those that
 * are not JSON: the caller splits them with a cap and surfaces what does not parse.
 *
 * @internal
 */
export function watchRequester(kubeConfig: KubeConfig, configuration: Configuration): WatchRequester {
  const auth = configuration.authMethods.default ?? kubeConfig;
  return async (url, signal) => {
    const context = new RequestContext(url.toString(), HttpMethod.GET);
    await auth.applySecurityAuthentication(context);
    const { statusCode, body } = await sendContextGet(context, signal);
    return { statusCode, body };
  };
}
