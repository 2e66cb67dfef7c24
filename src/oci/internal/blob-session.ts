import { createHash } from "node:crypto";
import { parseRepository, type RepositoryName } from "../reference.js";
import { CocoonError, isCocoonError } from "../../errors.js";
import type { StreamedBlob } from "../registry.js";
import type { RegistryRequest } from "./transport.js";

/** Bytes sent per `PATCH` of a streamed upload (raised to the registry's `OCI-Chunk-Min-Length`). */
export const UPLOAD_PIECE = 16 << 20;

type Send = (ref: RepositoryName, req: Omit<RegistryRequest, "registry" | "scope" | "signal">) => Promise<Response>;

/** Reads up to `size` bytes from `body` into one buffer; a short buffer means the body ended. */
async function readPiece(body: AsyncIterator<Uint8Array>, size: number, carry: { rest?: Uint8Array | undefined }): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    let part = carry.rest;
    carry.rest = undefined;
    if (part === undefined) {
      const next = await body.next();
      if (next.done === true) break;
      part = next.value;
    }
    const take = Math.min(part.length, size - length);
    parts.push(take === part.length ? part : part.subarray(0, take));
    if (take < part.length) carry.rest = part.subarray(take);
    length += take;
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, length);
}

/**
 * Uploads `body` as one blob in a chunked upload session, hashing it on the way: `POST`, a
 * `PATCH` per {@link UPLOAD_PIECE} bytes (`Content-Range`, in order, each to the `Location` the
 * previous answer gave), and a closing `PUT ?digest=` that carries the last piece. The next piece
 * is read while the previous one is on the wire, so at most two pieces are held.
 */
export async function uploadStreamedBlob(
  base: string,
  name: string,
  body: AsyncIterable<Uint8Array>,
  send: Send,
  blobURL: (ref: RepositoryName, path: string) => string,
): Promise<StreamedBlob> {
  let ref: RepositoryName;
  try {
    ref = parseRepository(`${base}/${name}`);
  } catch (err) {
    throw new CocoonError("ERR_INVALID_REFERENCE", `parse repo ${name}: ${isCocoonError(err) ? err.message : String(err)}`, { cause: err });
  }
  const what = `put blob ${name}`;
  const start = await send(ref, { method: "POST", url: blobURL(ref, "uploads/"), what, ok: [202], headers: { "content-length": "0" } });
  await start.body?.cancel();
  const pieceSize = Math.max(UPLOAD_PIECE, Number(start.headers.get("oci-chunk-min-length") ?? 0) || 0);
  let location = new URL(start.headers.get("location") ?? "", blobURL(ref, "uploads/"));
  const hash = createHash("sha256");
  const source = body[Symbol.asyncIterator]();
  const carry: { rest?: Uint8Array | undefined } = {};
  let offset = 0;
  try {
    let piece = await readPiece(source, pieceSize, carry);
    for (;;) {
      hash.update(piece);
      if (piece.length < pieceSize) break; // a short piece is the last: the PUT carries it
      const next = readPiece(source, pieceSize, carry);
      next.catch(() => undefined); // awaited below; a PATCH failure must not leave it unhandled
      const headers = {
        "content-type": "application/octet-stream",
        "content-length": String(piece.length),
        "content-range": `${offset}-${offset + piece.length - 1}`,
      };
      const sent = await send(ref, { method: "PATCH", url: location.href, what, ok: [202], headers, body: piece });
      await sent.body?.cancel();
      location = new URL(sent.headers.get("location") ?? location.href, location);
      offset += piece.length;
      piece = await next;
    }
    const digest = `sha256:${hash.digest("hex")}`;
    location.searchParams.set("digest", digest);
    const headers = { "content-type": "application/octet-stream", "content-length": String(piece.length) };
    const done = await send(ref, { method: "PUT", url: location.href, what, ok: [201], headers, body: piece });
    await done.body?.cancel();
    return { digest, size: offset + piece.length };
  } finally {
    await source.return?.();
  }
}
