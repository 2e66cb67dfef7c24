import { setFlagsFromString } from "node:v8";

setFlagsFromString("--allow-natives-syntax");
// V8 intrinsics, which only a function compiled after the flag can call.
/* eslint-disable @typescript-eslint/no-implied-eval */
const prepare = new Function("f", "%PrepareFunctionForOptimization(f)") as (fn: unknown) => void;
const optimizeOnNextCall = new Function("f", "%OptimizeFunctionOnNextCall(f)") as (fn: unknown) => void;
/* eslint-enable @typescript-eslint/no-implied-eval */

/**
 * Runs `read` until V8 has compiled it optimized (so any test it folds against `Object.prototype`
 * is in the code), then once more with `Object.prototype` holding `entries` as plain values, and
 * returns that last result. The entries are removed afterwards.
 */
export function readWithPollutedPrototype<T>(read: () => T, entries: Readonly<Record<string, unknown>>): T {
  prepare(read);
  for (let i = 0; i < 3; i++) read();
  optimizeOnNextCall(read);
  read();
  const keys = Object.keys(entries);
  try {
    for (const key of keys) Object.defineProperty(Object.prototype, key, { value: entries[key], configurable: true, writable: true });
    return read();
  } finally {
    for (const key of keys) Reflect.deleteProperty(Object.prototype, key);
  }
}
