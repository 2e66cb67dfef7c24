import { createHash } from "node:crypto";

/**
 * Tells whether two connection settings are equal by content: buffers byte for byte, URLs by
 * `href`, `undefined` fields absent, any two functions alike. Never true where the
 * {@link settingsFingerprint} texts differ (it may be false where they are equal, e.g. a CA as a
 * string and as a buffer), so it can stand in for hashing the CA and certificates on every request.
 *
 * @internal
 */
export function sameSettings(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return typeof a === "function" && typeof b === "function";
  if (a instanceof Uint8Array || b instanceof Uint8Array)
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in b) || !sameSettings(a[i], b[i])) return false; // a hole: not judged here
    return true;
  }
  let defined = 0; // own fields that are not undefined: counted up over a, down over b
  for (const key in a) {
    const value = own(a, key);
    if (value === undefined) continue;
    defined++;
    if (!sameSettings(value, own(b, key))) return false;
  }
  for (const key in b) if (own(b, key) !== undefined) defined--;
  return defined === 0;
}

function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * A stable text for connection settings: keys sorted, binary data and PEM text hashed, `undefined` dropped.
 *
 * @internal
 */
export function settingsFingerprint(value: unknown): string {
  if (value instanceof URL) return JSON.stringify(value.href);
  if (value instanceof Uint8Array) return `sha256:${createHash("sha256").update(value).digest("hex")}`;
  if (typeof value === "string" && value.length > 64) return `sha256:${createHash("sha256").update(value).digest("hex")}`;
  if (Array.isArray(value)) return `[${value.map(settingsFingerprint).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${settingsFingerprint(v)}`).join(",")}}`;
  }
  if (typeof value === "function") return "fn";
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for a symbol
  return JSON.stringify(value) ?? "undefined";
}
