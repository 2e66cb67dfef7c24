import { expect } from "vitest";
import { ProtocolError } from "./response-head.js";

/** What `fn` throws; fails the test when it returns. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw, got a return");
}

/** Asserts that `fn` throws a ProtocolError with exactly `message`. */
export function expectProtocolError(fn: () => unknown, message: string): void {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(ProtocolError);
  expect(err).toMatchObject({ name: "ProtocolError", message });
}
