import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelayMs } from "./retry-after.js";

const answer = (status: number, retryAfter?: string): Response =>
  new Response(null, { status, headers: retryAfter === undefined ? {} : { "retry-after": retryAfter } });
const read = { idempotent: true, replayable: true, retries: 2 };
const write = { idempotent: false, replayable: true, retries: 2 };
const stream = { idempotent: false, replayable: false, retries: 2 };

describe("retryDelayMs", () => {
  it.each([
    ["429 read, no Retry-After: backoff", answer(429), 0, read, 100],
    ["503 read, second retry: longer backoff", answer(503), 1, read, 200],
    ["503 read, retries used up", answer(503), 2, read, undefined],
    ["429 write with Retry-After", answer(429, "2"), 0, write, 2000],
    ["503 write without Retry-After: the registry may have acted", answer(503), 0, write, undefined],
    ["503 streamed body: never twice", answer(503, "1"), 0, stream, undefined],
    ["Retry-After beyond the cap", answer(429, "60"), 0, read, undefined],
    ["500 is never retried", answer(500), 0, read, undefined],
    ["404 is an answer", answer(404), 0, read, undefined],
  ])("%s", (_name, response, attempt, policy, expected) => expect(retryDelayMs(response, attempt, policy)).toBe(expected));
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-12-01T00:00:00Z");
  it.each([
    ["5", 5000],
    [" 0 ", 0],
    ["Tue, 01 Dec 2026 00:00:03 GMT", 3000],
    ["Mon, 30 Nov 2026 00:00:00 GMT", 0],
    ["soon", undefined],
    ["-1", undefined],
    ["", undefined],
  ])("%j -> %s", (value, expected) => expect(parseRetryAfter(value, now)).toBe(expected));
  it("is undefined without the header", () => expect(parseRetryAfter(null, now)).toBeUndefined());
});
