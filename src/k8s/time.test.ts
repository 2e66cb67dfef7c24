import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../errors.js";
import { runTicker, sleep } from "./time.js";

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Tracks whether a promise has settled, and with what. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe("sleep", () => {
  it.each([0, -5, Number.NaN, -Infinity])("ms=%s resolves true at once, even when aborted", async (ms) => {
    expect(await sleep(ms, AbortSignal.abort())).toBe(true);
    expect(await sleep(ms)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves true after exactly ms and leaves nothing behind", async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const state = track(sleep(1000, controller.signal));
    await vi.advanceTimersByTimeAsync(999);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state).toEqual({ settled: true, value: true });
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it("works without a signal", async () => {
    const state = track(sleep(10));
    await vi.advanceTimersByTimeAsync(10);
    expect(state).toEqual({ settled: true, value: true });
  });

  it("resolves false when the signal aborts first and clears the timer", async () => {
    const controller = new AbortController();
    const state = track(sleep(1000, controller.signal));
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(state).toEqual({ settled: true, value: false });
    expect(vi.getTimerCount()).toBe(0);
    expect(Date.now()).toBe(500);
  });

  it("resolves false at once for an already aborted signal, without a timer", async () => {
    const promise = sleep(1000, AbortSignal.abort());
    expect(vi.getTimerCount()).toBe(0);
    expect(await promise).toBe(false);
  });

  it("waits out delays beyond Node's timer limit", async () => {
    const ms = 2 ** 31 + 5;
    const state = track(sleep(ms));
    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state).toEqual({ settled: true, value: true });
  });

  it("waits for the signal when ms is Infinity", async () => {
    const controller = new AbortController();
    const state = track(sleep(Infinity, controller.signal));
    await vi.advanceTimersByTimeAsync(2 ** 32);
    expect(state.settled).toBe(false);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(state).toEqual({ settled: true, value: false });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("runTicker", () => {
  it.each([0, -1, Number.NaN, Infinity, 2 ** 31])("throws ERR_INVALID_ARGUMENT synchronously for %s", (ms) => {
    const fn = vi.fn();
    let thrown: unknown;
    try {
      void runTicker(ms, fn, new AbortController().signal);
    } catch (err) {
      thrown = err;
    }
    expect(isCocoonError(thrown, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((thrown as Error).message).toBe(
      `runTicker: interval must be a positive number of milliseconds up to 2147483647, got ${String(ms)}`,
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it("first calls fn after one interval, then once per interval", async () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const done = track(runTicker(100, () => calls.push(Date.now()), controller.signal));
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(401);
    expect(calls).toEqual([100, 200, 300, 400, 500]);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toEqual({ settled: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(5);
  });

  it("passes the signal to fn", async () => {
    const controller = new AbortController();
    const fn = vi.fn();
    void runTicker(50, fn, controller.signal);
    await vi.advanceTimersByTimeAsync(50);
    expect(fn).toHaveBeenCalledExactlyOnceWith(controller.signal);
    controller.abort();
  });

  it("collapses ticks during a slow fn into one pending tick", async () => {
    const controller = new AbortController();
    const starts: number[] = [];
    void runTicker(
      100,
      async () => {
        starts.push(Date.now());
        // Only the first call is slow: 350 ms, across the ticks at 200, 300 and 400.
        if (starts.length === 1) await new Promise((r) => setTimeout(r, 350));
      },
      controller.signal,
    );
    await vi.advanceTimersByTimeAsync(700);
    // The three ticks during call 1 give one extra call at 450, then the grid resumes.
    expect(starts).toEqual([100, 450, 500, 600, 700]);
    controller.abort();
  });

  it("resolves only after the running fn returns when aborted mid-call", async () => {
    const controller = new AbortController();
    let calls = 0;
    let seenAborted: boolean | undefined;
    const done = track(
      runTicker(
        100,
        async (signal) => {
          calls++;
          await new Promise((r) => setTimeout(r, 250));
          seenAborted = signal.aborted;
        },
        controller.signal,
      ),
    );
    await vi.advanceTimersByTimeAsync(150);
    controller.abort();
    await vi.advanceTimersByTimeAsync(199);
    expect(done.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toEqual({ settled: true, value: undefined });
    expect(seenAborted).toBe(true);
    expect(calls).toBe(1); // the tick pending at t=200/300 is dropped after the abort
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves at once without calling fn when already aborted", async () => {
    const fn = vi.fn();
    await runTicker(10, fn, AbortSignal.abort());
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(fn).not.toHaveBeenCalled();
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("boom");
      },
    ],
    ["rejects", () => Promise.reject(new Error("boom"))],
  ])("stops and rejects when fn %s", async (_name, fn) => {
    const controller = new AbortController();
    const spy = vi.fn(fn);
    const done = track(runTicker(100, spy, controller.signal));
    await vi.advanceTimersByTimeAsync(100);
    expect(done.settled).toBe(true);
    expect((done.error as Error).message).toBe("boom");
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
