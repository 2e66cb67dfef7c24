/**
 * Iterates a typed watch in the background and keeps every event, so integration tests can wait
 * for an event and then compare the whole sequence exactly.
 *
 * @module
 */
import type { CocoonWatch, WatchEvent } from "../../src/k8s/index.js";
import { stringAt } from "../../src/internal/safe-read.js";

/** A watch being iterated; see {@link recordWatch}. */
export interface WatchRecorder<T> {
  /** Every event so far, in order. */
  readonly events: WatchEvent<T>[];
  /**
   * Resolves once `count` events (default 1) from index `from` on (default 0) match `test`;
   * rejects after `timeoutMs` (default 30 s) with what was seen.
   */
  until(test: (event: WatchEvent<T>) => boolean, options?: { count?: number; from?: number; timeoutMs?: number }): Promise<void>;
  /** The events as short lines (`added ns/name`, `invalid(modified) ns/name status.observedGeneration`, `synced`). */
  lines(from?: number): string[];
  /** Settles when the iteration ends; rejects if it threw. */
  readonly done: Promise<void>;
}

/** Starts iterating `watch`; the iteration ends when the watch's signal aborts. */
export function recordWatch<T>(watch: CocoonWatch<T>): WatchRecorder<T> {
  const events: WatchEvent<T>[] = [];
  let wake = (): void => undefined;
  const done = (async () => {
    for await (const event of watch) {
      events.push(event);
      wake();
    }
  })();
  return {
    events,
    done,
    async until(test, { count = 1, from = 0, timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (events.slice(from).filter(test).length < count) {
        if (Date.now() > deadline)
          throw new Error(`waited ${timeoutMs} ms for ${count} matching events; saw:\n${describe(events).join("\n")}`);
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), done, new Promise((resolve) => setTimeout(resolve, 200))]);
      }
    },
    lines: (from = 0) => describe(events.slice(from)),
  };
}

function describe(events: readonly WatchEvent<unknown>[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "synced":
      case "relisted":
        return event.type;
      case "retrying":
        return `retrying ${String(event.error)}`;
      case "invalid":
        return `invalid(${event.change}) ${key(event.object)} ${event.error.path}`;
      default:
        return `${event.type} ${key(event.object)}`;
    }
  });
}

const key = (object: unknown): string => `${stringAt(object, "metadata", "namespace")}/${stringAt(object, "metadata", "name")}`;
