import { createHash, type Hash } from "node:crypto";
import { CocoonError } from "../../errors.js";
import { RegistryError } from "../errors.js";
import type { RepositoryName } from "../reference.js";
import type { StreamedBlob } from "../registry.js";
import { type Send, startSession } from "./blob-session.js";
import type { ReadCarry } from "./read-piece.js";
import { discardBody } from "./body.js";

/** Where a sized upload reads its body: the source, what a read left over, the hash, the bytes taken. */
interface Reading {
  readonly source: AsyncIterator<Uint8Array>;
  readonly carry: ReadCarry;
  readonly hash: Hash;
  readonly size: number;
  taken: number;
  /** The body's own failure (or a short body), which the upload rethrows as it came. */
  failure?: { readonly error: unknown };
}

/** The next `length` bytes of the body, each part hashed as it is handed to the request; a failure is kept in `r`. */
async function* run(r: Reading, length: number): AsyncGenerator<Uint8Array> {
  let left = length;
  const { source, carry, hash, size } = r;
  try {
    while (left > 0) {
      let part = carry.rest;
      carry.rest = undefined;
      if (part === undefined) {
        const next = await source.next();
        if (next.done === true)
          throw new RegistryError("ERR_REGISTRY_SIZE_MISMATCH", `blob body shorter than size ${size} (missing ${left})`);
        part = next.value;
      }
      if (part.length > left) {
        carry.rest = part.subarray(left);
        part = part.subarray(0, left);
      }
      left -= part.length;
      r.taken += part.length;
      hash.update(part);
      if (part.length > 0) yield part;
    }
  } catch (error) {
    r.failure = { error };
    throw error;
  }
}

/** Fails when the body has a byte past its size. */
async function probeEnd(r: Reading): Promise<void> {
  if ((r.carry.rest?.length ?? 0) > 0) throw longer(r.size);
  for (let next = await r.source.next(); next.done !== true; next = await r.source.next()) {
    if (next.value.length > 0) throw longer(r.size);
  }
}

const longer = (size: number): RegistryError => new RegistryError("ERR_REGISTRY_SIZE_MISMATCH", `blob body longer than size ${size}`);

/**
 * Uploads exactly `size` bytes of `body` in a chunked upload session, hashing them on the way and
 * holding none: `POST`, then `PATCH`es of `UPLOAD_PIECE` bytes whose bodies are pulled from
 * `body` as they are sent (the last `PATCH` also takes the remainder, so none is shorter than the
 * registry's minimum unless the whole body is), then an empty `PUT ?digest=`. For a body of a
 * piece or more, as many requests as `uploadStreamedBlob` makes; the digest covers exactly
 * the bytes sent.
 */
export async function uploadSizedBlob(
  base: string,
  name: string,
  body: AsyncIterable<Uint8Array>,
  size: number,
  send: Send,
  blobURL: (ref: RepositoryName, path: string) => string,
): Promise<StreamedBlob> {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `put blob ${name}: size ${size} is not a non-negative integer`);
  }
  const { ref, what, pieceSize, ...session } = await startSession(base, name, send, blobURL);
  let location = session.location;
  const source = body[Symbol.asyncIterator]();
  const reading: Reading = { source, carry: {}, hash: createHash("sha256"), size, taken: 0 };
  try {
    for (let offset = 0; offset < size;) {
      const length = size - offset < 2 * pieceSize ? size - offset : pieceSize;
      const headers = {
        "content-type": "application/octet-stream",
        "content-length": String(length),
        "content-range": `${offset}-${offset + length - 1}`,
      };
      const sent = await send(ref, { method: "PATCH", url: location.href, what, ok: [202], headers, body: run(reading, length) });
      await discardBody(sent);
      offset += length;
      // A registry that answers before taking the whole body would shift every later byte.
      if (reading.taken !== offset) {
        const message = `${what}: the registry answered PATCH after ${reading.taken - offset + length} of ${length} bytes`;
        throw new RegistryError("ERR_REGISTRY_TRANSPORT", message, { request: `PATCH ${location.href}` });
      }
      location = new URL(sent.headers.get("location") ?? location.href, location);
    }
    await probeEnd(reading);
    const digest = `sha256:${reading.hash.digest("hex")}`;
    location.searchParams.set("digest", digest);
    const done = await send(ref, { method: "PUT", url: location.href, what, ok: [201], headers: { "content-length": "0" } });
    await discardBody(done);
    return { digest, size };
  } catch (err) {
    if (reading.failure !== undefined) throw reading.failure.error; // the body's own failure, not what fetch made of it
    throw err;
  } finally {
    await source.return?.();
  }
}
