import { CocoonError } from "../../errors.js";

/**
 * Thrown, code `ERR_KUBE_STATUS`, when the API server answers a {@link KubeRequester} request with a
 * status other than 2xx (a redirect included: none is followed). `statusCode(err)`, `isNotFound(err)`,
 * `isConflict(err)` and the other helpers of `./k8s` read it as they read client-node's `ApiException`.
 *
 * @example
 * ```ts
 * try {
 *   await finishPodDeletion(requester, pod);
 * } catch (err) {
 *   if (err instanceof KubeStatusError) console.error(err.statusCode, err.body);
 * }
 * ```
 */
export class KubeStatusError extends CocoonError {
  /** Always `KubeStatusError`. */
  override name = "KubeStatusError";
  /** The HTTP status. */
  readonly statusCode: number;
  /** The answer's text (the server's `Status`), up to 64 KiB of it. */
  readonly body: string;

  /**
   * @param statusCode - The HTTP status.
   * @param body - The answer's text, capped.
   * @param request - The method and path, for the message.
   */
  constructor(statusCode: number, body: string, request: string) {
    let message = "";
    try {
      const status = JSON.parse(body) as { message?: unknown };
      if (typeof status.message === "string") message = `: ${status.message}`;
    } catch {
      // not a Status: the code says enough
    }
    super("ERR_KUBE_STATUS", `${request} answered ${String(statusCode)}${message}`);
    this.statusCode = statusCode;
    this.body = body;
  }
}
