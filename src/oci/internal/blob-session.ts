import { createHash } from "node:crypto";
import type { RepositoryName } from "../reference.js";
import type { StreamedBlob } from "../registry.js";
import { readPiece, type ReadCarry } from "./read-piece.js";
import { repositoryRef } from "./refs.js";
import type { RegistryRequest } from "./transport.js";
import type { RegistryResponse } from "./registry-response.js";
import { discardBody } from "./body.js";

/** Bytes sent per `PATCH` of a streamed upload (raised to the registry's `OCI-Chunk-Min-Length`). */
export const UPLOAD_PIECE = 16 << 20;

/** Sends one request of an upload session. */
export type Send = (ref: RepositoryName, req: Omit<RegistryRequest, "registry" | "scope" | "signal">) => Promise<RegistryResponse>;

const lengthOf = (parts: readonly Uint8Array[]): number => parts.reduce((n, p) => n + p.length, 0);

// A stream body: fetch copies a Uint8Array body (twice, in undici), but writes a stream's chunks as they are.
// eslint-disable-next-line @typescript-eslint/require-await -- an array as the AsyncIterable a body must be
async function* streamOf(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* parts;
}

/** An upload session the registry opened: where to send the first piece, and how large a piece must be. */
export interface UploadSession {
  readonly ref: RepositoryName;
  readonly what: string;
  readonly location: URL;
  readonly pieceSize: number;
}

/** Opens a chunked upload session: `POST …/blobs/uploads/`. */
export async function startSession(
  base: string,
  name: string,
  send: Send,
  blobURL: (ref: RepositoryName, path: string) => string,
): Promise<UploadSession> {
  const ref = repositoryRef(base, name);
  const what = `put blob ${name}`;
  const start = await send(ref, { method: "POST", url: blobURL(ref, "uploads/"), what, ok: [202], headers: { "content-length": "0" } });
  await discardBody(start);
  const pieceSize = Math.max(UPLOAD_PIECE, Number(start.headers.get("oci-chunk-min-length") ?? 0) || 0);
  return { ref, what, location: new URL(start.headers.get("location") ?? "", blobURL(ref, "uploads/")), pieceSize };
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
  const { ref, what, pieceSize, ...session } = await startSession(base, name, send, blobURL);
  let location = session.location;
  const hash = createHash("sha256");
  const source = body[Symbol.asyncIterator]();
  const carry: ReadCarry = {};
  let offset = 0;
  try {
    // Each piece is hashed as soon as it is read, so hashing the next overlaps the PATCH on the wire.
    const readHashed = (): Promise<Uint8Array[]> =>
      readPiece(source, pieceSize, carry).then((parts) => {
        for (const part of parts) hash.update(part);
        return parts;
      });
    let piece = await readHashed();
    for (;;) {
      const length = lengthOf(piece);
      if (length < pieceSize) break; // a short piece is the last: the PUT carries it
      const next = readHashed();
      next.catch(() => undefined); // awaited below; a PATCH failure must not leave it unhandled
      const headers = {
        "content-type": "application/octet-stream",
        "content-length": String(length),
        "content-range": `${offset}-${offset + length - 1}`,
      };
      const sent = await send(ref, { method: "PATCH", url: location.href, what, ok: [202], headers, body: streamOf(piece) });
      await discardBody(sent);
      location = new URL(sent.headers.get("location") ?? location.href, location);
      offset += length;
      piece = await next;
    }
    const digest = `sha256:${hash.digest("hex")}`;
    location.searchParams.set("digest", digest);
    const length = lengthOf(piece);
    const headers = { "content-type": "application/octet-stream", "content-length": String(length) };
    const done = await send(ref, { method: "PUT", url: location.href, what, ok: [201], headers, body: streamOf(piece) });
    await discardBody(done);
    return { digest, size: offset + length };
  } finally {
    await source.return?.();
  }
}
