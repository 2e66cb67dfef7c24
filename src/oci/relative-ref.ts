import { CocoonError, isCocoonError } from "../errors.js";
import { parseRelativeReference } from "./reference.js";

// Go's IsRelativeRef holds the parts to distribution's grammar, stricter than the parser's characters:
// lowercase path components joined by one separator, and a tag that starts with a word character.
const COMPONENTS = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG_START = /^[A-Za-z0-9_]/;

/** A registry-relative reference split by {@link parseRef}. */
export interface RelativeRef {
  /** The repository (a VM name), as written. */
  readonly name: string;
  /** The tag, or `latest`. */
  readonly tag: string;
}

function refused(ref: unknown, why: string, cause?: unknown): CocoonError {
  const text = typeof ref === "symbol" ? ref.toString() : String(ref);
  return new CocoonError("ERR_INVALID_REFERENCE", `reference ${JSON.stringify(text)} is not a registry-relative repo[:tag]: ${why}`, {
    cause,
  });
}

/**
 * Splits a registry-relative `repo[:tag]`, defaulting the tag to `latest` (Go's `ociutil.ParseRef`),
 * by the one reference parser: `parseReference` reads `<registry>/<ref>` the same way.
 *
 * Go's answer on every reference {@link isRelativeRef} accepts, and on every other one this parser
 * reads as a repository path and a tag. Where Go splits at the first colon what is no such
 * reference (`vm@sha256:…` into `vm@sha256` and the hex, `localhost:5000/vm` into `localhost` and
 * `5000/vm`, `:tag`, `""`), this throws instead of naming another repository.
 *
 * @example
 * ```ts
 * parseRef("vk-demo-sandbox-0:hibernate"); // => { name: "vk-demo-sandbox-0", tag: "hibernate" }
 * parseRef("ns/vm_1"); // => { name: "ns/vm_1", tag: "latest" }
 * parseRef("localhost:5000/vm"); // throws: reference "localhost:5000/vm" is not a registry-relative repo[:tag]: repository can only contain the characters `abcdefghijklmnopqrstuvwxyz0123456789_-./`: localhost:5000/vm
 * ```
 * @throws CocoonError `ERR_INVALID_REFERENCE` naming the reference: `reference "<ref>" is not a
 * registry-relative repo[:tag]: <why>`, for a digest reference, a registry or port, or whatever
 * the parser refuses (with go-containerregistry's message), and for a value that is not a string.
 */
export function parseRef(ref: string): RelativeRef {
  if (typeof ref !== "string") throw refused(ref, "it must be a string");
  let parsed;
  try {
    parsed = parseRelativeReference(ref);
  } catch (err) {
    throw refused(ref, isCocoonError(err) ? err.message : String(err), err);
  }
  if (parsed.kind === "digest") throw refused(ref, `it names the digest ${parsed.identifier}, not a tag`);
  return { name: parsed.repository, tag: parsed.identifier };
}

/**
 * Reports whether `ref` is a registry-relative `repo[:tag]` in distribution's grammar (Go's
 * `ociutil.IsRelativeRef`, the same answer on every input): {@link parseRef} reads it, its path
 * components are lowercase words joined by `.`, `_`, `__` or dashes, and its tag starts with a
 * letter, digit or `_`. Never throws; `false` for anything but a string.
 *
 * @example
 * ```ts
 * isRelativeRef("ns/vm_1:hibernate");    // => true
 * isRelativeRef("localhost:5000/repo");  // => false (a registry and a port)
 * ```
 */
export function isRelativeRef(ref: unknown): boolean {
  if (typeof ref !== "string") return false;
  let parsed;
  try {
    parsed = parseRef(ref);
  } catch {
    return false;
  }
  return COMPONENTS.test(parsed.name) && TAG_START.test(parsed.tag);
}
