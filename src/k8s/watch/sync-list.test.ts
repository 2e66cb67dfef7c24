import { z } from "zod";
import { describe, expect, it } from "vitest";
import type { ListQuery } from "./listers.js";
import { ObjectStore, parseWatched } from "./object-store.js";
import { syncList } from "./sync-list.js";
import type { WatchEvent } from "./watch-event.js";

const Schema = z.looseObject({ metadata: z.looseObject({ name: z.string(), resourceVersion: z.string() }), size: z.number() });
type Item = z.output<typeof Schema>;
const item = (name: string, resourceVersion: string, size: unknown = 1) => ({ metadata: { namespace: "ns", name, resourceVersion }, size });

/** A list of `items` served in pages of `limit`, recording the queries it got. */
function pagedLister(items: readonly unknown[], resourceVersion: string) {
  const queries: ListQuery[] = [];
  const list = (query: ListQuery): Promise<unknown> => {
    queries.push(query);
    const start = Number(query._continue ?? 0);
    const end = query.limit === undefined ? items.length : start + query.limit;
    const more = end < items.length ? { continue: String(end) } : {};
    return Promise.resolve({ metadata: { resourceVersion, ...more }, items: items.slice(start, end) });
  };
  return { list, queries };
}

function syncer(store: ObjectStore<Item>, parsed: string[]) {
  const events: string[] = [];
  const emit = (event: WatchEvent<Item>) =>
    events.push(
      event.type === "invalid"
        ? `invalid(${event.change}) ${event.error.path}`
        : "object" in event
          ? `${event.type} ${event.object.metadata.name}`
          : event.type,
    );
  const parse = (raw: unknown) => {
    parsed.push((raw as Item).metadata.name);
    return parseWatched(Schema, "Thing", raw);
  };
  return (items: readonly unknown[], pageSize = 2) => {
    events.length = 0;
    const lister = pagedLister(items, "42");
    const run = syncList(
      { list: lister.list, query: { labelSelector: "a=b" }, pageSize, kind: "Thing", parse, store, emit },
      new AbortController().signal,
    );
    return run.then((resourceVersion) => ({ resourceVersion, events: [...events], queries: lister.queries }));
  };
}

describe("syncList", () => {
  it("lists page by page, reporting each object once and resolving to the list's resource version", async () => {
    const store = new ObjectStore<Item>();
    const sync = syncer(store, []);
    const first = await sync([item("a", "1"), item("b", "2"), item("c", "3", "big")]);
    expect(first).toEqual({
      resourceVersion: "42",
      events: ["added a", "added b", "invalid(added) size"],
      queries: [
        { labelSelector: "a=b", limit: 2 },
        { labelSelector: "a=b", limit: 2, _continue: "2" },
      ],
    });
    expect(store.list().map((o) => o.metadata.name)).toEqual(["a", "b"]);
  });

  it("relists as a diff: changed objects modified, missing ones deleted as last seen, unchanged ones neither reported nor parsed", async () => {
    const store = new ObjectStore<Item>();
    const parsed: string[] = [];
    const sync = syncer(store, parsed);
    await sync([item("a", "1"), item("b", "2"), item("c", "3", "big"), item("d", "4", "big")], 0);
    parsed.length = 0;
    const again = await sync([item("a", "1"), item("b", "5"), item("d", "6"), item("e", "7")]);
    expect(again.events).toEqual(["modified b", "modified d", "added e", "invalid(deleted) size"]);
    expect(parsed).toEqual(["b", "d", "e"]);
    expect(store.list().map((o) => [o.metadata.name, o.metadata.resourceVersion])).toEqual([
      ["a", "1"],
      ["b", "5"],
      ["d", "6"],
      ["e", "7"],
    ]);
    const emptied = await sync([]);
    expect(emptied.events).toEqual(["deleted a", "deleted b", "deleted d", "deleted e"]);
    expect(emptied.queries).toEqual([{ labelSelector: "a=b", limit: 2 }]);
  });

  it("refuses an answer without an items array", async () => {
    const store = new ObjectStore<Item>();
    const list = () => Promise.resolve({ kind: "Status" });
    const run = syncList(
      { list, query: {}, pageSize: 0, kind: "Thing", parse: (raw) => parseWatched(Schema, "Thing", raw), store, emit: () => undefined },
      new AbortController().signal,
    );
    await expect(run).rejects.toThrow("the Thing list from the API server has no items array");
  });
});
