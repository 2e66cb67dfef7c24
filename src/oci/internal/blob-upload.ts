import { verifyBlob } from "../blob-copy.js";
import { isRegistryError } from "../errors.js";
import type { RepositoryName } from "../reference.js";
import { uploadRef } from "./refs.js";
import type { RegistryRequest } from "./transport.js";
import type { RegistryResponse } from "./registry-response.js";
import { discardBody } from "./body.js";

/** One blob to upload. */
export interface BlobUpload {
  readonly base: string;
  readonly name: string;
  readonly digest: string;
  readonly body: AsyncIterable<Uint8Array>;
  readonly size: number;
  readonly signal?: AbortSignal | undefined;
  /** The caller hashed `body` into `digest` for this call: only its length is checked here (see `PutBlobOptions`). */
  readonly digestChecked?: boolean;
}

type Send = (ref: RepositoryName, req: Omit<RegistryRequest, "registry" | "scope" | "signal">) => Promise<RegistryResponse>;
type BlobURL = (ref: RepositoryName, path: string) => string;

/**
 * Uploads a blob monolithically: `POST …/blobs/uploads/` (which also settles authentication, so
 * the streamed body is never sent twice), then one `PUT <location>?digest=…` with exactly `size`
 * bytes. The body passes through {@link verifyBlob}, so a body of the wrong length or digest fails
 * here with that error instead of whatever the registry makes of it (the digest of a body its
 * caller hashed for this call, `upload.digestChecked`, is left to the registry).
 */
export async function uploadBlob(upload: BlobUpload, send: Send, blobURL: BlobURL): Promise<void> {
  const { name, digest, size } = upload;
  const ref = uploadRef(upload.base, name, digest);
  const what = `put blob ${name}@${digest}`;
  const start = await send(ref, { method: "POST", url: blobURL(ref, "uploads/"), what, ok: [202], headers: { "content-length": "0" } });
  await discardBody(start);
  const location = start.headers.get("location");
  const target = new URL(location ?? "", blobURL(ref, "uploads/"));
  target.searchParams.set("digest", digest);
  // A body its caller hashed just before (a snapshot push) is only length-checked: each byte is hashed once.
  const checked = verifyBlob(upload.body, digest, size, { checkDigest: upload.digestChecked !== true });
  let bodyError: unknown;
  const body = (async function* () {
    try {
      yield* checked;
    } catch (err) {
      bodyError = err;
      throw err;
    }
  })();
  try {
    const headers = { "content-type": "application/octet-stream", "content-length": String(size) };
    const done = await send(ref, { method: "PUT", url: target.href, what, ok: [201], headers, body });
    await discardBody(done);
  } catch (err) {
    if (isRegistryError(bodyError)) throw bodyError; // the body's own length or digest was wrong
    throw err;
  }
}
