import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isRegistryError } from "../errors.js";
import { bodyChunks } from "./body.js";

const IDLE_MS = 100;
const ctx = { what: "get blob vm@sha256:x", request: "GET https://registry.test/v2/vm/blobs/sha256:x", idleTimeoutMs: IDLE_MS };

/** A response whose body hands out `parts` as they are pulled, then stalls forever when `stall` holds, else ends. */
function responseOf(parts: readonly string[], stall: boolean): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(Buffer.from(parts[i++] ?? ""));
      else if (!stall) controller.close();
      else return new Promise<void>(() => undefined);
      return undefined;
    },
  });
  return new Response(body);
}

describe("bodyChunks", () => {
  it("waits as long as its consumer likes between reads: only the peer's silence is a timeout", async () => {
    const got: string[] = [];
    for await (const chunk of bodyChunks(responseOf(["a", "b", "c"], false), ctx)) {
      got.push(Buffer.from(chunk).toString());
      await sleep(IDLE_MS * 2.5); // a slow writer downstream
    }
    expect(got).toEqual(["a", "b", "c"]);
  });

  it("fails a read the peer leaves unanswered past the idle time, after chunks came in", async () => {
    const got: string[] = [];
    const started = performance.now();
    const err = await (async () => {
      for await (const chunk of bodyChunks(responseOf(["a", "b"], true), ctx)) {
        got.push(Buffer.from(chunk).toString());
        await sleep(IDLE_MS * 1.5);
      }
    })().catch((e: unknown) => e);
    const waited = performance.now() - started - 2 * IDLE_MS * 1.5;
    expect(got).toEqual(["a", "b"]);
    expect(isRegistryError(err, "ERR_REGISTRY_TIMEOUT") && err.message).toBe(`${ctx.what}: no data for ${IDLE_MS} ms`);
    expect(waited).toBeGreaterThanOrEqual(IDLE_MS - 5);
    expect(waited).toBeLessThan(IDLE_MS * 10);
  });
});
