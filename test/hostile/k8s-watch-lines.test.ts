import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchCocoonHibernations, type WatchEvent } from "../../src/k8s/index.js";
import { startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { answerWatch, hibernation, isWatch, listAndWatch, record, requestLine, sendList } from "./support/scripted-watch.js";

// Rule 4: a watch line that is not an event is surfaced and followed by a relist, never skipped;
// a line past the cap is refused as it passes it, never buffered whole.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const retryMessages = (events: WatchEvent<unknown>[]) => events.flatMap((e) => (e.type === "retrying" ? [(e.error as Error).message] : []));

/** The API server: list `a`; the first watch sends `b`, then `bad`, then `c`; the relist has all three; later watches stay open. */
function serveBadLine(bad: string | Buffer) {
  api.handle(
    listAndWatch(
      (res, n) =>
        n === 0
          ? sendList(res, [hibernation("a", "5")], "10")
          : sendList(res, [hibernation("a", "5"), hibernation("b", "11"), hibernation("c", "12")], "12"),
      async (res, n) => {
        const watch = answerWatch(res);
        if (n > 0) return;
        await watch.event("ADDED", hibernation("b", "11"));
        await watch.raw(bad);
        await watch.event("ADDED", hibernation("c", "12"));
      },
    ),
  );
}

async function watchThrough(options: { maxEventBytes?: number } = {}) {
  const controller = new AbortController();
  const rec = record(watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 60, ...options }));
  await rec.until((e) => e.type === "relisted");
  await expect.poll(() => api.peer.seen.filter(isWatch).length).toBe(2);
  controller.abort();
  await rec.done;
  return rec;
}

const RELISTED = ["added ns/a@5", "synced 10", "added ns/b@11", "retrying ERR_WATCH_STREAM", "added ns/c@12", "relisted 12"];

describe("a watch line that is not an event", () => {
  it.each([
    ["not JSON", "{not json\n", '(it is not JSON): "{not json"'],
    ["JSON, not an object", "[1,2,3]\n", '(it is not a JSON object): "[1,2,3]"'],
    [
      "an unknown type",
      '{"type":"ADDDED","object":{}}\n',
      '(its type is none of ADDED, MODIFIED, DELETED, BOOKMARK, ERROR): "{\\"type\\":\\"ADDDED\\",\\"object\\":{}}"',
    ],
    ["an ADDED without an object", '{"type":"ADDED"}\n', '(its object is not a JSON object): "{\\"type\\":\\"ADDED\\"}"'],
  ])("(%s) is a retrying event with the reason, then a relist from the last good state", async (_case, bad, why) => {
    serveBadLine(bad);
    const rec = await watchThrough();
    expect(rec.lines()).toEqual(RELISTED);
    expect(retryMessages(rec.events)).toEqual([`the API server sent a watch line that is not an event ${why}; listing again`]);
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "watch@10", "list", "watch@12"]);
  });
});

describe("a watch line past the cap", () => {
  it("is refused at maxEventBytes, a whole valid event included, and listed again", async () => {
    const big = {
      ...hibernation("big", "11"),
      metadata: { ...(hibernation("big", "11")["metadata"] as object), annotations: { x: "y".repeat(5_000) } },
    };
    serveBadLine(`${JSON.stringify({ type: "ADDED", object: big })}\n`);
    const rec = await watchThrough({ maxEventBytes: 4_096 });
    expect(rec.lines()).toEqual(RELISTED);
    expect(retryMessages(rec.events)).toEqual(["the API server sent a watch event longer than 4096 bytes: dropped unread, listing again"]);
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "watch@10", "list", "watch@12"]);
  });

  it("is not buffered: a 200 MiB line without an end costs at most the 16 MiB cap, and the connection is closed", async () => {
    const CHUNK = Buffer.alloc(1024 * 1024, "x");
    let written = 0;
    api.handle(
      listAndWatch(
        (res, n) => sendList(res, [hibernation("a", "5")], n === 0 ? "10" : "12"),
        async (res, n) => {
          const watch = answerWatch(res);
          if (n > 0) return;
          await watch.raw('{"type":"ADDED","object":{"metadata":{"name":"');
          for (let i = 0; i < 200 && !watch.closed; i++) {
            await watch.raw(CHUNK);
            if (!watch.closed) written += CHUNK.length;
          }
        },
      ),
    );
    const before = process.memoryUsage();
    const rec = await watchThrough();
    const after = process.memoryUsage();
    expect(rec.lines()).toEqual(["added ns/a@5", "synced 10", "retrying ERR_WATCH_STREAM", "relisted 12"]);
    expect(retryMessages(rec.events)).toEqual([
      "the API server sent a watch event longer than 16777216 bytes: dropped unread, listing again",
    ]);
    // The server got as far as the socket buffers let it past the cap, then the client left.
    expect(written).toBeLessThan(48 * 1024 * 1024);
    expect(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
  });
});
