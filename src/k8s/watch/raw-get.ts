import { ApiException, HttpMethod, type Configuration, type RequestContext, type ResponseContext } from "@kubernetes/client-node";

/**
 * Sends a GET of `path` as one of client-node's generated API methods sends it, through the
 * configuration's public parts: its server, its authentication (`BearerToken`, then `default`), its
 * middleware before and after, its HTTP library; `signal` is set after the middleware, as
 * `callOptions`' is. Resolves to the server's JSON as it came (no model classes); a status
 * other than 200 rejects with the `ApiException` client-node throws for it.
 *
 * @param query - Query parameters, in the order given; `undefined` values are left out.
 * @internal
 */
export async function rawGet(
  configuration: Configuration,
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
  signal: AbortSignal,
): Promise<unknown> {
  let context: RequestContext = configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
  context.setHeaderParam("Accept", "application/json, */*;q=0.8");
  for (const [name, value] of Object.entries(query)) if (value !== undefined) context.setQueryParam(name, String(value));
  for (const auth of [configuration.authMethods.BearerToken, configuration.authMethods.default]) {
    await auth?.applySecurityAuthentication(context);
  }
  for (const middleware of configuration.middleware) context = await middleware.pre(context).toPromise();
  if (typeof (context as Partial<RequestContext>).setSignal === "function") context.setSignal(signal);
  let response: ResponseContext = await configuration.httpApi.send(context).toPromise();
  for (const middleware of [...configuration.middleware].reverse()) response = await middleware.post(response).toPromise();
  return jsonOrThrow(response);
}

/** client-node's processing of a list response, minus the deserialization into model classes. */
async function jsonOrThrow(response: ResponseContext): Promise<unknown> {
  const { httpStatusCode: code, headers, body } = response;
  if (code === 200) return JSON.parse(await body.text()) as unknown;
  if (code === 401) throw new ApiException(code, "Unauthorized", undefined, headers);
  throw new ApiException(code, "Unknown API Status Code!", await response.getBodyAsAny(), headers);
}
