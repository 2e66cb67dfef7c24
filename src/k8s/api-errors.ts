// Kubernetes API error inspection (Go's `apierrors.IsNotFound` and friends).
//
// Works on client-node's `ApiException` (`code`, `body` as the raw response text), on
// Kubernetes `Status` objects (watch error events), on errors carrying `statusCode` or
// `response.statusCode`, and on any of those wrapped in an `Error` `cause` chain (Go's
// `errors.As`). Nothing uses `instanceof`, so errors from a second copy of client-node work too.

/** The parts of a Kubernetes `Status` body these helpers read. */
interface StatusBody {
  code?: number;
  reason?: string;
  message?: string;
}

/** Reasons apimachinery knows; an unknown reason lets the HTTP code decide (Go's `knownReasons`). */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  "Unauthorized",
  "Forbidden",
  "NotFound",
  "AlreadyExists",
  "Conflict",
  "Gone",
  "Invalid",
  "ServerTimeout",
  "StoreReadError",
  "Timeout",
  "TooManyRequests",
  "BadRequest",
  "MethodNotAllowed",
  "NotAcceptable",
  "RequestEntityTooLarge",
  "UnsupportedMediaType",
  "InternalError",
  "Expired",
  "ServiceUnavailable",
]);

/** How deep a `cause` chain is followed; guards against cycles. */
const MAX_CAUSE_DEPTH = 8;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

const httpCode = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;

/** Reads a `Status` from a JSON string or an object; anything else gives `undefined`. */
function toStatus(value: unknown): StatusBody | undefined {
  let obj = value;
  if (typeof value === "string") {
    try {
      obj = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!isRecord(obj)) return undefined;
  const status: StatusBody = {};
  const code = httpCode(obj["code"]);
  if (code !== undefined) status.code = code;
  if (typeof obj["reason"] === "string") status.reason = obj["reason"];
  if (typeof obj["message"] === "string") status.message = obj["message"];
  return status;
}

/** The `Status` body of one error level: `body`, `response.body`, or the error itself when it is a Status. */
function statusOf(err: Record<string, unknown>): StatusBody | undefined {
  const response = err["response"];
  return (
    toStatus(err["body"]) ??
    (isRecord(response) ? toStatus(response["body"]) : undefined) ??
    (err["kind"] === "Status" ? toStatus(err) : undefined)
  );
}

/** Walks `err` and its `cause` chain, returning the first non-undefined result of `read`. */
function walk<T>(err: unknown, read: (level: Record<string, unknown>) => T | undefined): T | undefined {
  let level = err;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && isRecord(level); depth++) {
    const result = read(level);
    if (result !== undefined) return result;
    level = level["cause"];
  }
  return undefined;
}

/**
 * Returns the HTTP status code of a Kubernetes API error, or `undefined` when there is none.
 *
 * Looks, in order, at `code` (client-node's `ApiException`, a `Status`), `statusCode`,
 * `response.statusCode`, and the `code` of the `Status` body; then at `cause`. Only integers
 * 100–599 count, so Node's string codes (`"ECONNREFUSED"`) give `undefined`.
 *
 * @example
 * ```ts
 * try {
 *   await core.readNamespacedPod({ name, namespace });
 * } catch (err) {
 *   if (statusCode(err) === 404) return undefined;
 *   throw err;
 * }
 * ```
 */
export function statusCode(err: unknown): number | undefined {
  return walk(err, (level) => {
    const response = level["response"];
    return (
      httpCode(level["code"]) ??
      httpCode(level["statusCode"]) ??
      (isRecord(response) ? httpCode(response["statusCode"]) : undefined) ??
      statusOf(level)?.code
    );
  });
}

/** Returns the `reason` of the error's Kubernetes `Status` body (e.g. `"NotFound"`), or `undefined`. */
export function statusReason(err: unknown): string | undefined {
  return walk(err, (level) => statusOf(level)?.reason);
}

/** Returns the `message` of the error's Kubernetes `Status` body, or `undefined`. */
export function statusMessage(err: unknown): string | undefined {
  return walk(err, (level) => statusOf(level)?.message);
}

/** Go's `reasonAndCodeForError` test: the reason matches, or it is unknown and the code matches. */
function hasReasonOrCode(err: unknown, reason: string, code: number): boolean {
  const actual = statusReason(err) ?? "";
  if (actual === reason) return true;
  return !KNOWN_REASONS.has(actual) && statusCode(err) === code;
}

/**
 * Reports whether `err` says the object does not exist (reason `NotFound`, or HTTP 404).
 *
 * @example
 * ```ts
 * await core.deleteNamespacedPod({ name, namespace }).catch((err: unknown) => {
 *   if (!isNotFound(err)) throw err;
 * });
 * ```
 */
export function isNotFound(err: unknown): boolean {
  return hasReasonOrCode(err, "NotFound", 404);
}

/**
 * Reports whether `err` is a write conflict (reason `Conflict`, or HTTP 409), e.g. a stale `resourceVersion`.
 *
 * As in Go, an `AlreadyExists` error (also HTTP 409) is not a conflict; see {@link isAlreadyExists}.
 *
 * @example
 * ```ts
 * try {
 *   set = await patch(clients, set, mutate, { optimisticLock: true });
 * } catch (err) {
 *   if (!isConflict(err)) throw err;
 *   set = await getCocoonSet(namespace, name); // somebody wrote first: read again, retry later
 * }
 * ```
 */
export function isConflict(err: unknown): boolean {
  return hasReasonOrCode(err, "Conflict", 409);
}

/** Reports whether `err` says the caller may not do this (reason `Forbidden`, or HTTP 403). */
export function isForbidden(err: unknown): boolean {
  return hasReasonOrCode(err, "Forbidden", 403);
}

/** Reports whether `err` says the object failed validation (reason `Invalid`, or HTTP 422). */
export function isInvalid(err: unknown): boolean {
  return hasReasonOrCode(err, "Invalid", 422);
}

/** Reports whether `err` says the object already exists (reason `AlreadyExists`; the code alone is not enough, as in Go). */
export function isAlreadyExists(err: unknown): boolean {
  return statusReason(err) === "AlreadyExists";
}
