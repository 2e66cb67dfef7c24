// Serving an admission webhook over `node:http` / `node:https` (Go's `admission.Serve`).
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeAdmissionReview } from "./decode.js";
import { allow } from "./response.js";
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

/** Where {@link admissionHandler} reports failures; `console` fits. */
export interface AdmissionLogger {
  /** Receives `decode admission review: …` for each review that cannot be decoded. */
  warn(message: string, ...args: unknown[]): void;
  /** Receives a message and the error for each handler failure or unencodable response. */
  error(message: string, ...args: unknown[]): void;
}

/** Options of {@link admissionHandler}. */
export interface AdmissionHandlerOptions {
  /** Body cap in bytes; `0` or unset means `DEFAULT_MAX_BODY` (10 MiB). */
  maxBytes?: number | undefined;
  /** Receives a warning for each undecodable review and an error for each handler failure; defaults to `console`. */
  logger?: AdmissionLogger | undefined;
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

/** `JSON.stringify` with `encoding/json`'s escaping of `<`, `>`, `&`, U+2028 and U+2029. */
const goJSON = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The response in Go's field order, with its `omitempty` rules. */
function wireResponse(uid: string, result: AdmissionResult): AdmissionResponse {
  const out: AdmissionResponse = { uid, allowed: result.allowed === true };
  if (result.status != null) out.status = result.status;
  if (result.patch) out.patch = result.patch;
  if (result.patchType != null) out.patchType = result.patchType;
  if (result.auditAnnotations && Object.keys(result.auditAnnotations).length > 0) out.auditAnnotations = result.auditAnnotations;
  if (result.warnings && result.warnings.length > 0) out.warnings = result.warnings;
  return out;
}

/** The review in Go's field order (`kind`, `apiVersion`, `request`, `response`), empty strings omitted. */
function wireReview(review: AdmissionReview): AdmissionReview {
  return {
    ...(review.kind ? { kind: review.kind } : {}),
    ...(review.apiVersion ? { apiVersion: review.apiVersion } : {}),
    ...(review.request ? { request: review.request } : {}),
    ...(review.response ? { response: review.response } : {}),
  };
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
 * 5. Answer 200 `application/json` with the whole review echoed back, `request` included, no
 *    trailing newline; strings escaped like `encoding/json`. An unencodable response gives 500
 *    `encode response\n`.
 *
 * Beyond Go: a handler that throws or rejects is logged at error level and answered 500
 * `admission handler failed\n` (Go's handlers cannot fail). The method and content type are not
 * checked, as in Go.
 *
 * @example
 * ```ts
 * https.createServer({ cert, key }, admissionHandler(async (review) => {
 *   const set = review.request?.object as CocoonSetInput;
 *   return set.spec.agent.replicas > 10 ? deny("too many agents") : allow();
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
      logger.warn((err as Error).message);
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
      logger.error("admission handler failed", err);
      httpError(res, 500, "admission handler failed");
      return;
    }
    review.response = wireResponse(request.uid, result ?? allow());

    let body: string;
    try {
      body = goJSON(wireReview(review));
    } catch (err) {
      logger.error("encode admission response", err);
      httpError(res, 500, "encode response");
      return;
    }
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
  return (req, res) => {
    serve(req, res).catch((err: unknown) => {
      logger.error("admission serve failed", err);
      res.destroy();
    });
  };
}
