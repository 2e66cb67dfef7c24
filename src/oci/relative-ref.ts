import { DEFAULT_TAG } from "./reference.js";

const RELATIVE_REPO = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const RELATIVE_TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** A registry-relative reference split by {@link parseRef}. */
export interface RelativeRef {
  /** Everything before the first `:` (the repository). */
  readonly name: string;
  /** Everything after it, or `latest`. */
  readonly tag: string;
}

/**
 * Splits a registry-relative `repo[:tag]` at its first colon, defaulting the tag to `latest` (Go's `ociutil.ParseRef`).
 *
 * It knows nothing about hosts, ports or digests: guard the input with {@link isRelativeRef}. Never
 * throws; a value that is not a string counts as `""`.
 *
 * @example
 * ```ts
 * parseRef("vk-demo-sandbox-0:hibernate"); // => { name: "vk-demo-sandbox-0", tag: "hibernate" }
 * parseRef(":tag");                        // => { name: ":tag", tag: "latest" }
 * ```
 */
export function parseRef(ref: string): RelativeRef {
  const colon = typeof ref === "string" ? ref.indexOf(":") : -1;
  if (colon > 0) return { name: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { name: typeof ref === "string" ? ref : "", tag: DEFAULT_TAG };
}

/**
 * Reports whether `ref` is a registry-relative `repo[:tag]`, the only form {@link parseRef} splits
 * correctly (Go's `ociutil.IsRelativeRef`). Never throws; `false` for anything but a string.
 *
 * @example
 * ```ts
 * isRelativeRef("ns/vm_1:hibernate");    // => true
 * isRelativeRef("localhost:5000/repo");  // => false (the port is taken for a tag)
 * ```
 */
export function isRelativeRef(ref: unknown): boolean {
  if (typeof ref !== "string") return false;
  const { name, tag } = parseRef(ref);
  return RELATIVE_REPO.test(name) && RELATIVE_TAG.test(tag);
}
