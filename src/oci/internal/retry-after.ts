import type { RegistryResponse } from "./registry-response.js";

/** When a retry is safe, from the request's kind. */
export interface RetryPolicy {
  readonly idempotent: boolean;
  readonly replayable: boolean;
  readonly retries: number;
}

/** The longest `Retry-After` honoured; a registry asking for more gets an error instead. */
export const MAX_RETRY_AFTER_MS = 10_000;

/**
 * How long to wait before retrying an answer, or `undefined` when it must not be retried.
 *
 * Only 429 and 503 are retried. A GET/HEAD is retried even without `Retry-After` (with backoff);
 * any other replayable request only when the registry said when to come back, which means it did
 * not act on the request. A streamed body is never sent twice.
 */
export function retryDelayMs(response: RegistryResponse, attempt: number, policy: RetryPolicy): number | undefined {
  if ((response.status !== 429 && response.status !== 503) || attempt >= policy.retries || !policy.replayable) return undefined;
  const after = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  if (after === undefined) return policy.idempotent ? 100 * 2 ** attempt : undefined;
  return after <= MAX_RETRY_AFTER_MS ? after : undefined;
}

/** Parses `Retry-After` (delta seconds or an HTTP date) into milliseconds from `now`; never throws. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined; // an HTTP date starts with the day's name
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
