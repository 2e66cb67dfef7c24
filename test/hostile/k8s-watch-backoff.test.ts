import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchCocoonHibernations } from "../../src/k8s/index.js";
import { startAPIServer, status, type HostileAPIServer } from "./support/api-server.js";
import type { SeenRequest } from "./support/peer.js";
import { answerWatch, hibernation, listAndWatch, queryOf, record, requestLine, sendList } from "./support/scripted-watch.js";

// Rule 4: 410 Gone, immediate closes, bookmark-then-close and repeated continue tokens back off as
// client-go's reflector does: 800 ms, doubling, capped at 30 s, each jittered up to twice itself,
// and back to the first wait after a healthy watch. With the first wait at least 800 ms and the
// second at least 1.6 s, a 2 s window from the first request holds an exact number of requests.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const WINDOW_MS = 2_000;

/** Serves `list` and `watch`, noting when each request came; watches the server for `ms` from the first one, then stops. */
async function runFor(
  ms: number,
  list: (res: ServerResponse, n: number, req: SeenRequest) => void,
  watch: (res: ServerResponse, n: number, req: SeenRequest) => void | Promise<void>,
) {
  const times: number[] = [];
  const handler = listAndWatch(list, watch);
  api.handle((req, res, peer) => {
    times.push(Date.now());
    return handler(req, res, peer);
  });
  const controller = new AbortController();
  const rec = record(watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 60 }));
  await expect.poll(() => times.length).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, times[0]! + ms - Date.now()));
  const inWindow = api.peer.seen.slice(0, times.filter((t) => t - times[0]! < ms).length);
  controller.abort();
  await rec.done;
  return { rec, times, inWindow };
}

const listA = (res: ServerResponse) => sendList(res, [hibernation("a", "5")], "10");

describe("a watch backs off as client-go's reflector does", () => {
  it.each([
    [
      "an ERROR event",
      (res: ServerResponse) => {
        const watch = answerWatch(res);
        void watch
          .event("ERROR", {
            kind: "Status",
            apiVersion: "v1",
            status: "Failure",
            reason: "Expired",
            code: 410,
            message: "too old resource version",
          })
          .then(() => watch.end());
      },
    ],
    ["the HTTP status", (res: ServerResponse) => status(res, 410, "Expired", "too old resource version")],
  ])("a storm of 410 Gone (%s): 4 requests in 2 s, each relist at least 800 ms after the 410", async (_case, gone) => {
    const { rec, times, inWindow } = await runFor(WINDOW_MS, listA, gone);
    expect(inWindow.map(requestLine)).toEqual(["list", "watch@10", "list", "watch@10"]);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(800);
    expect(rec.lines().slice(0, 3)).toEqual(["added ns/a@5", "synced 10", "relisted 10"]);
  });

  it.each([
    ["empty", []],
    ["each after a change", ["MODIFIED"]],
  ])("a storm of immediate closes (%s): 3 requests in 2 s, the watch resumed, never listed again", async (_case, types) => {
    const { rec, times, inWindow } = await runFor(WINDOW_MS, listA, async (res, n) => {
      const watch = answerWatch(res);
      for (const type of types) await watch.event(type, hibernation("a", String(20 + n)));
      watch.end();
    });
    expect(inWindow.map(requestLine)).toEqual(["list", "watch@10", `watch@${types.length === 0 ? 10 : 20}`]);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(800);
    expect(rec.lines().slice(0, 3)).toEqual(["added ns/a@5", "synced 10", ...(types.length === 0 ? [] : ["modified ns/a@20"])]);
  });

  it("a storm of bookmarks, each closed at once: 3 requests in 2 s, each resumed from the bookmark", async () => {
    const { rec, times, inWindow } = await runFor(WINDOW_MS, listA, async (res, n) => {
      const watch = answerWatch(res);
      await watch.event("BOOKMARK", {
        kind: "CocoonHibernation",
        apiVersion: "cocoonset.cocoonstack.io/v1",
        metadata: { resourceVersion: String(20 + n) },
      });
      watch.end();
    });
    expect(inWindow.map(requestLine)).toEqual(["list", "watch@10", "watch@20"]);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(800);
    expect(rec.lines()).toEqual(["added ns/a@5", "synced 10"]);
  });

  it("a repeated continue token is refused: 4 list requests in 2 s, each refusal a retrying event, waits growing", async () => {
    const { rec, inWindow } = await runFor(
      WINDOW_MS,
      (res) => sendList(res, [hibernation("a", "5")], "10", "again"),
      () => undefined,
    );
    expect(inWindow.map((r) => [requestLine(r), queryOf(r, "continue")])).toEqual([
      ["list", null],
      ["list", "again"],
      ["list", null],
      ["list", "again"],
    ]);
    const retries = rec.events.flatMap((e) => (e.type === "retrying" ? [e] : []));
    expect(retries.map((e) => [(e.error as { code?: string }).code, (e.error as Error).message])).toEqual(
      retries.map(() => [
        "ERR_WATCH_STREAM",
        "the CocoonHibernation list from the API server repeats a continue token: refused, listing again",
      ]),
    );
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect([retries[0]!.delayMs >= 800 && retries[0]!.delayMs < 1600, retries[1]!.delayMs >= 1600 && retries[1]!.delayMs < 3200]).toEqual([
      true,
      true,
    ]);
    expect(rec.lines()[0]).toBe("added ns/a@5");
  });

  it("starts over after a healthy watch: the wait after it is the first again", async () => {
    const watchTimes: number[] = [];
    const { inWindow } = await runFor(9_000, listA, async (res, n) => {
      watchTimes.push(Date.now());
      const watch = answerWatch(res);
      if (n === 2) await new Promise((resolve) => setTimeout(resolve, 1_200));
      if (n <= 3) watch.end();
    });
    expect(inWindow.map(requestLine)).toEqual(["list", "watch@10", "watch@10", "watch@10", "watch@10", "watch@10"]);
    const gaps = watchTimes.slice(1).map((t, i) => t - watchTimes[i]!);
    // Two quick closes: the first and second waits; the healthy watch: none; a quick close: the first wait again.
    const ranges = [
      [800, 1_600],
      [1_600, 3_200],
      [1_200, 1_500],
      [800, 1_600],
    ] as const;
    const within = gaps.map((gap, i) => gap >= ranges[i]![0] && gap < ranges[i]![1] + 150);
    expect({ gaps, within }).toEqual({ gaps, within: [true, true, true, true] });
  });
});
