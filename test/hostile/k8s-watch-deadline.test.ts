import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchCocoonHibernations } from "../../src/k8s/index.js";
import { startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { answerWatch, hibernation, isWatch, listAndWatch, record, requestLine, sendList } from "./support/scripted-watch.js";

// Rule 4: a watch request kept open past its timeoutSeconds plus a margin (a tenth, at least one
// second) is dropped and asked again, whatever the server does meanwhile; an abort closes even an
// unanswered request's connection at once.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const listA = (res: ServerResponse) => sendList(res, [hibernation("a", "5")], "10");

describe("a watch the server holds past its timeoutSeconds", () => {
  it.each([
    ["answers, then goes silent", (res: ServerResponse) => void answerWatch(res)],
    ["never answers", () => undefined],
    [
      "drips a bookmark every 200 ms",
      (res: ServerResponse) => {
        const watch = answerWatch(res);
        const timer = setInterval(() => {
          if (watch.closed) clearInterval(timer);
          else void watch.event("BOOKMARK", { metadata: { resourceVersion: "10" } });
        }, 200);
      },
    ],
  ])("(%s) is dropped 2 s after it was sent (timeoutSeconds: 1) and resumed after a wait", async (_case, hold) => {
    const watchTimes: number[] = [];
    api.handle(
      listAndWatch(listA, (res) => {
        watchTimes.push(Date.now());
        hold(res);
      }),
    );
    const controller = new AbortController();
    const rec = record(watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 1 }));
    await rec.until((e) => e.type === "retrying", { timeoutMs: 6_000 });
    await expect.poll(() => api.peer.seen.filter(isWatch).length, { timeout: 3_000 }).toBe(2);
    controller.abort();
    await rec.done;
    expect(rec.lines()).toEqual(["added ns/a@5", "synced 10", "retrying ERR_WATCH_STREAM"]);
    const retrying = rec.events[2];
    expect(retrying?.type === "retrying" && (retrying.error as Error).message).toBe(
      "the API server kept a watch request open 2000 ms, past its timeoutSeconds: dropped, asking again",
    );
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "watch@10", "watch@10"]);
    const droppedAfter = rec.at[2]! - watchTimes[0]!;
    expect(droppedAfter >= 1_900 && droppedAfter < 2_500).toBe(true);
  });
});

describe("an abort", () => {
  it("closes an unanswered watch request's connection within a second, and the iteration ends", async () => {
    let closedAt = 0;
    api.handle(
      listAndWatch(listA, (res) => {
        res.on("close", () => (closedAt = Date.now()));
      }),
    );
    const controller = new AbortController();
    const rec = record(watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 60 }));
    await expect.poll(() => api.peer.seen.filter(isWatch).length).toBe(1);
    const abortedAt = Date.now();
    controller.abort();
    await rec.done;
    const endedAfter = Date.now() - abortedAt;
    await expect.poll(() => closedAt, { timeout: 3_000 }).toBeGreaterThan(0);
    expect([endedAfter < 1_000, closedAt - abortedAt < 1_000]).toEqual([true, true]);
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "watch@10"]);
  });
});
