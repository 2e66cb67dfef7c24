import { createHash } from "node:crypto";
import { CocoonError } from "../errors.js";

/**
 * Returns the hex-encoded SHA-256 of `data` (Go's `ociutil.SHA256Hex`).
 *
 * @example
 * ```ts
 * sha256Hex(new TextEncoder().encode("abc")); // => "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Returns `sha256:<hex>` of `data`, the digest a registry names the bytes by.
 *
 * @example
 * ```ts
 * const digest = sha256Digest(manifestBytes); // "sha256:…"
 * ```
 */
export function sha256Digest(data: Uint8Array): string {
  return `sha256:${sha256Hex(data)}`;
}

/**
 * Checks a digest the way go-containerregistry's `v1.NewHash` does before an upload, and returns it.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message (`cannot parse hash: "…"`,
 * `found non-hex character in hash: A`, `wrong number of hex digits for sha256: …`, `unsupported hash: "sha512"`).
 */
export function checkUploadDigest(digest: string): string {
  const colon = digest.indexOf(":");
  const algorithm = colon < 0 ? "" : digest.slice(0, colon);
  const hex = colon < 0 ? "" : digest.slice(colon + 1);
  const fail = (message: string): never => {
    throw new CocoonError("ERR_INVALID_REFERENCE", message);
  };
  if (algorithm === "" || hex === "") fail(`cannot parse hash: ${goQuote(digest)}`);
  const bad = /[^0-9a-f]/.exec(hex);
  // Go prints the first offending byte with %c, so a multi-byte character shows as its lead byte.
  if (bad) fail(`found non-hex character in hash: ${String.fromCharCode(Buffer.from(hex.slice(bad.index))[0] ?? 0)}`);
  if (algorithm !== "sha256") fail(`unsupported hash: ${goQuote(algorithm)}`);
  if (hex.length !== 64) fail(`wrong number of hex digits for sha256: ${hex}`);
  return digest;
}

/**
 * Checks the digest part of a `repo@digest` reference the way go-digest's `Canonical.Validate` does.
 *
 * @returns Go's message, or `undefined` when the digest is a valid `sha256:<64 lowercase hex>`.
 */
export function canonicalDigestProblem(digest: string): string | undefined {
  if (!digest.startsWith("sha256:")) return `unsupported digest algorithm: ${digest}`;
  const hex = digest.slice("sha256:".length);
  if (hex.length !== 64) return "invalid checksum digest length";
  return /^[a-f0-9]{64}$/.test(hex) ? undefined : "invalid checksum digest format";
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Go's `%q` for the texts these messages quote: quotes, backslashes and control characters escaped. */
function goQuote(text: string): string {
  // eslint-disable-next-line no-control-regex -- Go's %q escapes control characters
  const body = text.replace(/["\\\u0000-\u001f\u007f]/g, (c) => QUOTE_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `"${body}"`;
}
