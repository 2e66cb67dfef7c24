import { IsomorphicFetchHttpLibrary, Observable, type RequestContext, type ResponseContext } from "@kubernetes/client-node";
import { isCocoonError } from "../../errors.js";

/**
 * client-node's own HTTP library, whose requests reject with the `ERR_CROSS_ORIGIN_REDIRECT`
 * `CocoonError` itself when a redirect left the API server's origin. client-node 2's undici
 * `fetch` reports any error from its dispatcher as `TypeError: fetch failed` with the error as its
 * `cause`; client-node 1's node-fetch rejects with the error as it is, which passes unchanged.
 *
 * @example
 * ```ts
 * const configuration = createConfiguration({ baseServer, authMethods: { default: auth }, httpApi: new CrossOriginTypedLibrary() });
 * ```
 * @internal
 */
export class CrossOriginTypedLibrary extends IsomorphicFetchHttpLibrary {
  override send(request: RequestContext): Observable<ResponseContext> {
    return new Observable(
      super
        .send(request)
        .toPromise()
        .catch((err: unknown) => {
          const cause = err instanceof Error ? err.cause : undefined;
          throw isCocoonError(cause, "ERR_CROSS_ORIGIN_REDIRECT") ? cause : err;
        }),
    );
  }
}
