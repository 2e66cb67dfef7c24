/**
 * One registry call of each HTTP method a registry client sends, against a real registry: what
 * the forward-proxy tests run in the test's process and in a child process.
 *
 * @module
 */
import { MediaType, type OCIRegistry, sha256Digest } from "../../src/oci/index.js";

/** Requests per method that {@link callEveryMethod} sends to an anonymous registry. */
export const EVERY_METHOD_REQUESTS = { POST: 1, PATCH: 1, PUT: 2, HEAD: 1, GET: 2, DELETE: 1 } as const;

const MIB = 1024 * 1024;

/**
 * Pushes a blob in a chunked upload (`POST`, one `PATCH`, `PUT`) and a manifest (`PUT`), probes it
 * (`HEAD`), reads it and the blob back (`GET`s) and deletes it by digest (`DELETE`). Resolves to
 * the blob's bytes as read.
 */
export async function callEveryMethod(registry: OCIRegistry, name: string): Promise<number> {
  const blob = Buffer.alloc(16 * MIB + 5, 7);
  const pushed = await registry.putBlobStreamed(
    name,
    (async function* () {
      yield blob;
    })(),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MediaType.OCIManifest,
      config: { mediaType: "application/octet-stream", digest: pushed.digest, size: pushed.size },
      layers: [],
    }),
  );
  await registry.putManifest(name, "latest", manifest, MediaType.OCIManifest);
  if (!(await registry.hasManifest(name, "latest"))) throw new Error("the manifest just pushed is absent");
  const { data } = await registry.getManifest(name, "latest");
  if (Buffer.compare(data, manifest) !== 0) throw new Error("the manifest read back differs");
  let read = 0;
  for await (const chunk of await registry.getBlob(name, pushed.digest)) read += (chunk as Buffer).length;
  await registry.deleteManifest(name, sha256Digest(manifest));
  return read;
}
