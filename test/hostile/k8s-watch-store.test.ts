import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchCocoonHibernations } from "../../src/k8s/index.js";
import { startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { answerWatch, hibernation, listAndWatch, record, requestLine, sendList } from "./support/scripted-watch.js";

// Rule 4: an event that repeats what the watch holds is not reported again; objects that do not
// parse cost no more per byte than objects that do.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

describe("an event that repeats what the watch holds", () => {
  it("is not reported again: a replay of the list, the same ADDED, MODIFIED or DELETED twice, an invalid object twice", async () => {
    api.handle(
      listAndWatch(
        (res) => sendList(res, [hibernation("a", "5")], "10"),
        async (res) => {
          const watch = answerWatch(res);
          await watch.event("ADDED", hibernation("a", "5"));
          await watch.event("ADDED", hibernation("b", "11"));
          await watch.event("ADDED", hibernation("b", "11"));
          await watch.event("MODIFIED", hibernation("b", "11"));
          await watch.event("MODIFIED", hibernation("b", "12"));
          await watch.event("MODIFIED", hibernation("b", "12"));
          await watch.event("DELETED", hibernation("b", "13"));
          await watch.event("DELETED", hibernation("b", "13"));
          await watch.event("ADDED", hibernation("c", "14", "Bogus"));
          await watch.event("ADDED", hibernation("c", "14", "Bogus"));
          await watch.event("BOOKMARK", { metadata: { resourceVersion: "15" } });
        },
      ),
    );
    const controller = new AbortController();
    const sets = watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 60 });
    const rec = record(sets);
    await expect.poll(() => sets.resourceVersion).toBe("15");
    controller.abort();
    await rec.done;
    expect(rec.lines()).toEqual([
      "added ns/a@5",
      "synced 10",
      "added ns/b@11",
      "modified ns/b@12",
      "deleted ns/b@13",
      "invalid(added) ns/c",
    ]);
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "watch@10"]);
  });
});

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
v8.setFlagsFromString("--no-expose-gc");

/** Heap held by a watch of `count` listed objects after a full collection, its events read and dropped. */
async function heapOfList(count: number, desire: string): Promise<{ heap: number; invalid: number }> {
  const items = Array.from({ length: count }, (_, i) => hibernation(`h-${i}`, String(i + 1), desire));
  const body = Buffer.from(JSON.stringify({ kind: "CocoonHibernationList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items }));
  api.handle(
    listAndWatch(
      (res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
        res.end(body);
      },
      (res) => void answerWatch(res),
    ),
  );
  gc();
  const before = v8.getHeapStatistics().used_heap_size;
  const controller = new AbortController();
  const sets = watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal, timeoutSeconds: 60 });
  let invalid = 0;
  for await (const event of sets) {
    if (event.type === "invalid") invalid++;
    if (event.type === "synced") break;
  }
  gc();
  const heap = v8.getHeapStatistics().used_heap_size - before;
  controller.abort();
  return { heap, invalid };
}

describe("objects that do not parse", () => {
  it("cost at most 1.5 times what as many valid ones do: 40,000 invalid list items", { timeout: 60_000 }, async () => {
    await heapOfList(500, "Hibernate"); // loads the schema, unmeasured
    const valid = await heapOfList(40_000, "Hibernate");
    const invalid = await heapOfList(40_000, "Bogus");
    expect([valid.invalid, invalid.invalid]).toEqual([0, 40_000]);
    // The figures show in the failure message.
    expect({ valid: valid.heap, invalid: invalid.heap, under: invalid.heap < 1.5 * valid.heap }).toEqual({
      valid: valid.heap,
      invalid: invalid.heap,
      under: true,
    });
  });
});
