// Serving an admission webhook over `node:http` / `node:https` (Go's `admission.Serve`).
import type { IncomingMessage, ServerResponse } from "node:http";
import { encodeGo } from "../../internal/go/index.js";
import type { Logger } from "../logger.js";
import { decodeAdmissionReview, decodedRawText } from "./decode.js";
import { allow } from "./response.js";
import { ADMISSION_REVIEW } from "./review-go-types.js";
import type { AdmissionResponse, AdmissionReview } from "./types.js";

/** What a handler returns: a response whose `uid` may be left out, or nothing to allow. */
export type AdmissionResult = Omit<AdmissionResponse, "uid"> & {
  /** Ignored: the request's `uid` is always used. */
  uid?: string | undefined;
};

/**
 * Decides one admission request (Go's `admission.Handler`).
 *
 * Returning `null`/`undefined` allows the request. `signal` aborts when the client goes away or
 * once the response has been sent.
 */
export type AdmissionHandlerFunc = (
  review: AdmissionReview,
  signal: AbortSignal,
) => AdmissionResult | null | undefined | Promise<AdmissionResult | null | undefined>;

/** Options of {@link admissionHandler}. */
export interface AdmissionHandlerOptions {
  /** Body cap in bytes; `0` or unset means `DEFAULT_MAX_BODY` (10 MiB). */
  maxBytes?: number | undefined;
  /**
   * Gets a warning (`decode admission review: …`) for each undecodable review when it has `warn`,
   * and an error for each handler failure or unencodable response, the error as `fields.err`;
   * defaults to `console`.
   */
  logger?: Logger | undefined;
}

/** Go's `http.Error`: text/plain, nosniff, the message and a newline. */
function httpError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = `${message}\n`;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The review as Go's `json.Marshal` writes it: Go's field order and omitempty rules, the request
 * as Go's typed request (with `object`, `oldObject` and `options` as the exact text received,
 * unless the handler replaced them), the handler's response with the request's `uid`.
 */
function encodeReview(review: AdmissionReview, request: object, result: AdmissionResult): string {
  const response: AdmissionResponse = { ...result, uid: (request as { uid: string }).uid };
  const field = (path: string): string => path.slice(path.lastIndexOf(".") + 1);
  return encodeGo(ADMISSION_REVIEW, { ...review, response }, (value, path) => decodedRawText(request, field(path), value));
}

/**
 * Returns a `node:http`/`node:https` request listener that serves an admission webhook with
 * Go's `admission.Serve` steps.
 *
 * 1. Decode the review ({@link decodeAdmissionReview}); on failure log a warning and answer
 *    400 `decode admission review\n` (`text/plain; charset=utf-8`, `X-Content-Type-Options: nosniff`).
 * 2. Without a `request`, answer 400 `admission review missing request\n`; the handler is not called.
 * 3. Call the handler (it may be async); `null`/`undefined` means {@link allow}.
 * 4. Set the response's `uid` to the request's (overwriting the handler's) and put it in the review.
 * 5. Answer 200 `application/json` with the whole review echoed back, Go's bytes exactly: the
 *    typed request (unknown fields dropped, zero values filled, `object` as received), the
 *    response with Go's omitempty rules (`deny("")` has no `message`), no trailing newline. A
 *    response Go could not hold (`allowed: "yes"`) gives 500 `encode response\n`.
 *
 * Beyond Go: a handler that throws or rejects is logged at error level and answered 500
 * `admission handler failed\n` (Go's handlers cannot fail). The method and content type are not
 * checked, as in Go.
 *
 * @example
 * ```ts
 * https.createServer({ cert, key }, admissionHandler(async (review) => {
 *   const set = review.request?.object as CocoonSetInput;
 *   return (set.spec?.agent.replicas ?? 0) > 10 ? deny("too many agents") : allow();
 * })).listen(8443);
 * ```
 */
export function admissionHandler(
  handler: AdmissionHandlerFunc,
  options: AdmissionHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = options.logger ?? console;
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const controller = new AbortController();
    res.once("close", () => controller.abort());

    let review: AdmissionReview;
    try {
      review = await decodeAdmissionReview(req, options.maxBytes ?? 0);
    } catch (err) {
      logger.warn?.((err as Error).message, { err });
      httpError(res, 400, "decode admission review");
      return;
    }
    const request = review.request;
    if (!request) {
      httpError(res, 400, "admission review missing request");
      return;
    }

    let result: AdmissionResult | null | undefined;
    try {
      result = await handler(review, controller.signal);
    } catch (err) {
      logger.error("admission handler failed", { err });
      httpError(res, 500, "admission handler failed");
      return;
    }
    let body: string;
    try {
      body = encodeReview(review, request, result ?? allow());
    } catch (err) {
      logger.error("encode admission response", { err });
      httpError(res, 500, "encode response");
      return;
    }
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
  return (req, res) => {
    serve(req, res).catch((err: unknown) => {
      logger.error("admission serve failed", { err });
      res.destroy();
    });
  };
}
