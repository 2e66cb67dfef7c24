import { createHash } from "node:crypto";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { RegistryError } from "./errors.js";
import { messageOf } from "../internal/message-of.js";

/** Options of {@link verifyBlob}. */
export interface VerifyBlobOptions {
  /** Also hash the bytes and compare with `digest` (Go's `CopyBlobExact`); default `true`. */
  readonly checkDigest?: boolean;
}

/**
 * Passes `body` through, failing when it is not exactly `size` bytes or (by default) does not hash to `digest`.
 * An `undefined` size checks the digest only.
 *
 * The twin of Go's `ociutil` blob verifier: at most `size` bytes come out; a longer body fails
 * before any extra byte is passed on, a shorter one when it ends, a wrong hash after the last
 * byte (so a consumer must not commit what it got until the iteration ends cleanly). An error of
 * `body` before `size` bytes passes through unchanged; one while probing for trailing bytes is
 * wrapped as `verify blob <digest>: …`. Go's messages, with typed codes:
 * `ERR_REGISTRY_SIZE_MISMATCH`, `ERR_REGISTRY_DIGEST_MISMATCH`, `ERR_REGISTRY_TRANSPORT`.
 *
 * @example
 * ```ts
 * for await (const chunk of verifyBlob(response.body, layer.digest, layer.size)) file.write(chunk);
 * ```
 */
export async function* verifyBlob(
  body: AsyncIterable<Uint8Array>,
  digest: string,
  size: number | undefined,
  options: VerifyBlobOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const hash = options.checkDigest === false ? undefined : createHash("sha256");
  const iterator = body[Symbol.asyncIterator]();
  let remaining = size ?? Number.POSITIVE_INFINITY;
  try {
    while (remaining > 0) {
      const next = await iterator.next();
      if (next.done === true) {
        if (size === undefined) break;
        throw new RegistryError("ERR_REGISTRY_SIZE_MISMATCH", `blob ${digest} shorter than manifest size ${size} (missing ${remaining})`);
      }
      const chunk = next.value.subarray(0, remaining);
      remaining -= chunk.length;
      hash?.update(chunk);
      if (chunk.length > 0) yield chunk;
      if (next.value.length > chunk.length) throw longer(digest, size ?? 0);
    }
    if (size !== undefined) await probeEnd(iterator, digest, size);
  } finally {
    await iterator.return?.();
  }
  if (hash === undefined) return;
  const got = `sha256:${hash.digest("hex")}`;
  const want = digest.startsWith("sha256:") ? digest : `sha256:${digest}`;
  if (got !== want) throw new RegistryError("ERR_REGISTRY_DIGEST_MISMATCH", `blob ${digest} digest mismatch: got ${got}`);
}

async function probeEnd(iterator: AsyncIterator<Uint8Array>, digest: string, size: number): Promise<void> {
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw new RegistryError("ERR_REGISTRY_TRANSPORT", `verify blob ${digest}: ${messageOf(err)}`, { cause: err });
    }
    if (next.done === true) return;
    if (next.value.length > 0) throw longer(digest, size);
  }
}

const longer = (digest: string, size: number): RegistryError =>
  new RegistryError("ERR_REGISTRY_SIZE_MISMATCH", `blob ${digest} longer than manifest size ${size}`);

/**
 * Copies exactly `size` bytes of `body` to `dst` and checks both the length and the sha256 digest
 * (Go's `ociutil.CopyBlobExact`). `dst` is not ended.
 *
 * @throws RegistryError as {@link verifyBlob} does; bytes already written stay written.
 * @example
 * ```ts
 * await copyBlobExact(file, await registry.getBlob(vm, digest), digest, size);
 * ```
 */
export async function copyBlobExact(dst: Writable, body: AsyncIterable<Uint8Array>, digest: string, size: number): Promise<void> {
  await writeAll(dst, verifyBlob(body, digest, size));
}

/**
 * Copies exactly `size` bytes of an already digest-verified `body` to `dst`, checking only the
 * length (Go's `ociutil.CopyBlobSized`). `dst` is not ended.
 *
 * @throws RegistryError `ERR_REGISTRY_SIZE_MISMATCH` on a short or long body.
 */
export async function copyBlobSized(dst: Writable, body: AsyncIterable<Uint8Array>, digest: string, size: number): Promise<void> {
  await writeAll(dst, verifyBlob(body, digest, size, { checkDigest: false }));
}

async function writeAll(dst: Writable, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of chunks) {
    if (!dst.write(chunk)) await once(dst, "drain");
  }
}
