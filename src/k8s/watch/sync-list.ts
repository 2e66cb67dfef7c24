import { CocoonError } from "../../errors.js";
import { propOf, stringAt } from "../../internal/safe-read.js";
import type { ListQuery, Lister } from "./listers.js";
import { changeEvent, storedResourceVersion, type ObjectStore, type StoredObject } from "./object-store.js";
import type { WatchEvent } from "./watch-event.js";

/** What one full list needs. @internal */
export interface ListSync<T> {
  readonly list: Lister;
  /** The selectors sent with every page. */
  readonly query: Pick<ListQuery, "labelSelector" | "fieldSelector">;
  /** Objects per page; 0 for one request. */
  readonly pageSize: number;
  readonly kind: string;
  readonly parse: (raw: unknown) => StoredObject<T>;
  readonly store: ObjectStore<T>;
  readonly emit: (event: WatchEvent<T>) => void;
}

/**
 * Lists every object, page by page, and brings the store to the list: an object it did not hold
 * is `added`, one whose resource version changed is `modified` (parsed again), one the list lacks
 * is `deleted` with the last state the store held; an unchanged object is not reported (nor parsed
 * again). Events go out as each page arrives. Resolves to the list's resource version.
 *
 * A `continue` token the list already sent is refused (`ERR_WATCH_STREAM`) rather than followed:
 * a server that repeats one would be listed forever.
 *
 * @internal
 */
export async function syncList<T>(sync: ListSync<T>, signal: AbortSignal): Promise<string> {
  const { store, emit } = sync;
  const kept = new Set<StoredObject<T>>();
  let resourceVersion: string;
  let next: string | undefined;
  const tokens = new Set<string>();
  do {
    const query: ListQuery = {
      ...sync.query,
      ...(sync.pageSize > 0 ? { limit: sync.pageSize } : {}),
      ...(next ? { _continue: next } : {}),
    };
    const page = await sync.list(query, signal);
    const items = propOf(page, "items");
    if (!Array.isArray(items))
      throw new CocoonError("ERR_UNEXPECTED_OBJECT", `the ${sync.kind} list from the API server has no items array`);
    for (const raw of items as unknown[]) {
      const namespace = stringAt(raw, "metadata", "namespace");
      const name = stringAt(raw, "metadata", "name");
      const held = store.get(namespace, name);
      if (held !== undefined && storedResourceVersion(held) === stringAt(raw, "metadata", "resourceVersion")) {
        kept.add(held);
        continue;
      }
      const stored = sync.parse(raw);
      store.set(namespace, name, stored);
      kept.add(stored);
      emit(changeEvent(held === undefined ? "added" : "modified", stored));
    }
    resourceVersion = stringAt(page, "metadata", "resourceVersion");
    next = stringAt(page, "metadata", "continue") || undefined;
    if (next !== undefined && tokens.has(next))
      throw new CocoonError(
        "ERR_WATCH_STREAM",
        `the ${sync.kind} list from the API server repeats a continue token: refused, listing again`,
      );
    if (next !== undefined) tokens.add(next);
  } while (next !== undefined);
  store.sweep(kept, (stored) => emit(changeEvent("deleted", stored)));
  return resourceVersion;
}
