import type { UnexpectedObjectError } from "../resources/unexpected-object-error.js";

/**
 * What happened to one object: `added`, `modified` or `deleted`.
 *
 * @example
 * ```ts
 * const change: WatchChange = "deleted";
 * ```
 */
export type WatchChange = "added" | "modified" | "deleted";

/**
 * One event of a typed watch ({@link watchCocoonSets}, {@link watchCocoonHibernations}, {@link watchCocoonPods}).
 *
 * - `added`, `modified`, `deleted`: an object changed; `object` is parsed with the kind's schema.
 *   After a relist, a `deleted` object is the last state the watch saw (the server no longer has it).
 * - `invalid`: an object changed (`change`) but does not parse; `object` is what the server sent
 *   (for a `deleted` found by a relist, what it last sent) and `error` names the first issue. The
 *   watch keeps going; the object is left out of `list()` and `get()` until a change parses again.
 * - `synced`: the first full list has been delivered (every object in it came before as `added` or `invalid`).
 * - `relisted`: the watch listed again, because the server no longer had its resource version
 *   (410 Gone: etcd compacted, or the watch cache started over after an API server restart), or
 *   because a watch line was not an event (announced by a `retrying` before);
 *   the changes it had missed came before as `added`, `modified`, `deleted` or `invalid`, one per object.
 * - `retrying`: a list or watch request failed (the server is down, refused the request, ...) or
 *   broke the protocol (`ERR_WATCH_STREAM`: a line that is not an event or passes `maxEventBytes`,
 *   a request kept open past its timeout, a repeated `continue`); the watch tries again after
 *   `delayMs` (client-go's reflector backoff), resuming from its resource version when it has one,
 *   and listing again after a bad line.
 *
 * @typeParam T - The object type: `CocoonSet`, `CocoonHibernation` or {@link WatchedPod}.
 * @example
 * ```ts
 * for await (const event of watchCocoonSets(clients, { signal })) {
 *   if (event.type === "added" || event.type === "modified") console.log(event.object.spec?.agent.mode);
 *   if (event.type === "invalid") console.error(event.change, event.error.message);
 * }
 * ```
 */
export type WatchEvent<T> =
  | { readonly type: WatchChange; readonly object: T }
  | { readonly type: "invalid"; readonly change: WatchChange; readonly object: unknown; readonly error: UnexpectedObjectError }
  | { readonly type: "synced" | "relisted"; readonly resourceVersion: string }
  | { readonly type: "retrying"; readonly error: unknown; readonly delayMs: number };
