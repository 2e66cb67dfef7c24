/**
 * Helpers for the registry integration tests: a real registry per file, blobs and manifests to push.
 *
 * @module
 */
import { inject } from "vitest";
import { sha256Digest } from "../../src/oci/index.js";
import { startRegistry, type StartRegistryOptions, type TestRegistry } from "../../src/testing/index.js";

/** Starts a registry with the binary the global setup found or built. */
export function startTestRegistry(options: Omit<StartRegistryOptions, "binary"> = {}): Promise<TestRegistry> {
  return startRegistry({ ...options, binary: inject("registryBinary") });
}

/** A blob and its digest. */
export interface TestBlob {
  readonly bytes: Buffer;
  readonly digest: string;
}

/** Makes a blob of `size` bytes with a recognizable, seeded pattern. */
export function testBlob(size: number, seed = 1): TestBlob {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return { bytes, digest: sha256Digest(bytes) };
}

/** Streams `bytes` in chunks of `chunk` bytes. */
export async function* chunked(bytes: Uint8Array, chunk = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

/** An OCI image manifest whose config is `config`, as bytes. */
export function manifestFor(config: TestBlob, layers: readonly TestBlob[] = []): Buffer {
  const descriptor = (b: TestBlob, mediaType: string) => ({ mediaType, digest: b.digest, size: b.bytes.length });
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: descriptor(config, "application/vnd.oci.empty.v1+json"),
      layers: layers.map((l) => descriptor(l, "application/octet-stream")),
    }),
  );
}

/** The OCI image manifest media type. */
export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

/** Reads a stream to one buffer. */
export async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

/** Resolves to the rejection of `promise` (fails the test when it fulfils). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err as Error & { code?: string },
  );
}
