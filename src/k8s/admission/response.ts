// Admission verdicts and limits (Go's `admission.Allow`, `Deny` and `DefaultMaxBody`).
import type { AdmissionResponse } from "./types.js";

/** The default cap on an admission request body: 10 MiB (`10 << 20`), as in Go. */
export const DEFAULT_MAX_BODY = 10 << 20;

/**
 * Returns a response that admits the request.
 *
 * Serialized as Go does: `{"uid":"","allowed":true}`; the handler fills in `uid`.
 *
 * @example
 * ```ts
 * const handler = admissionHandler((review) => (isAllowed(review) ? allow() : deny("not allowed")));
 * ```
 */
export function allow(): AdmissionResponse {
  return { uid: "", allowed: true };
}

/**
 * Returns a response that rejects the request with `message` and reason `Forbidden`.
 *
 * The shape is Go's exactly: `{"uid":"","allowed":false,"status":{"metadata":{},"message":…,"reason":"Forbidden"}}`,
 * with no `code` (the apiserver reports a denial without one as HTTP 400). `deny("")` is written
 * without `message`, as Go's `omitempty` does.
 *
 * @example
 * ```ts
 * deny("hibernatePolicy=release requires agent.replicas=0");
 * ```
 */
export function deny(message: string): AdmissionResponse {
  return { uid: "", allowed: false, status: { metadata: {}, message, reason: "Forbidden" } };
}
