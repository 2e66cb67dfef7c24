import { CocoonError } from "../../errors.js";

/** An event's type, as the API server writes it. @internal */
export type EventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** One watch event as it came: its type and its object, not checked further. @internal */
export interface RawEvent {
  readonly type: EventType;
  readonly object: object;
}

const TYPES: ReadonlySet<string> = new Set<EventType>(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);
/** Characters of a bad line quoted in the error. */
const QUOTED = 80;

/**
 * Parses one line of a watch response: the event it holds, `undefined` for a blank line, or the
 * error saying why it is not an event (not JSON, no known `type`, no `object`). client-go's
 * decoder fails the watch on the same lines; client-node's drops them and reads on.
 *
 * @internal
 */
export function parseEventLine(bytes: Buffer): RawEvent | CocoonError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    if (bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) return undefined;
    return notEvent(bytes, "it is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return notEvent(bytes, "it is not a JSON object");
  const { type, object } = parsed as { type?: unknown; object?: unknown };
  if (typeof type !== "string" || !TYPES.has(type)) return notEvent(bytes, "its type is none of ADDED, MODIFIED, DELETED, BOOKMARK, ERROR");
  if (typeof object !== "object" || object === null || Array.isArray(object)) return notEvent(bytes, "its object is not a JSON object");
  return { type: type as EventType, object };
}

function notEvent(bytes: Buffer, why: string): CocoonError {
  const quoted = bytes
    .subarray(0, QUOTED * 4)
    .toString("utf8")
    .slice(0, QUOTED);
  const more = bytes.length > quoted.length ? "..." : "";
  return new CocoonError(
    "ERR_WATCH_STREAM",
    `the API server sent a watch line that is not an event (${why}): ${JSON.stringify(quoted)}${more}; listing again`,
  );
}
