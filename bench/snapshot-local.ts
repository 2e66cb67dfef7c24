/**
 * A v2 push and pull with no registry and no HTTP (`bench/snapshot-run.ts` ops `push-local` and
 * `pull-local`): the library's own `pushSnapshot` and `streamSnapshot`, with the same knobs, on a
 * registry that keeps blobs in memory. The push reads the export file and compresses and hashes
 * each chunk as it would for a real registry; the pull fetches, verifies, decodes and writes the
 * import tar into `/dev/null`. What they reach bounds what the library can reach on this machine.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import type { Downloader, FetchedManifest, Uploader } from "../src/oci/registry.js";
import { pushSnapshot, readExportFile, streamSnapshot } from "../src/snapshot/index.js";

/** Blobs and manifests in memory, taken as given (the push has hashed them already). */
class MemoryBlobs implements Uploader, Downloader {
  readonly #blobs = new Map<string, Uint8Array>();
  readonly #manifests = new Map<string, FetchedManifest>();

  hasBlob(_name: string, digest: string): Promise<boolean> {
    return Promise.resolve(this.#blobs.has(digest));
  }

  async putBlob(_name: string, digest: string, body: AsyncIterable<Uint8Array>): Promise<void> {
    const parts: Uint8Array[] = [];
    for await (const part of body) parts.push(part);
    this.#blobs.set(digest, parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts));
  }

  putManifest(name: string, tag: string, data: Uint8Array, contentType: string): Promise<void> {
    this.#manifests.set(`${name}:${tag}`, { data, contentType });
    return Promise.resolve();
  }

  getManifest(name: string, reference: string): Promise<FetchedManifest> {
    const manifest = this.#manifests.get(`${name}:${reference}`);
    return manifest ? Promise.resolve(manifest) : Promise.reject(new Error(`manifest ${name}:${reference} not found`));
  }

  getBlob(_name: string, digest: string): Promise<Readable> {
    const blob = this.#blobs.get(digest);
    return blob ? Promise.resolve(Readable.from([blob])) : Promise.reject(new Error(`blob ${digest} not found`));
  }

  /** Forgets every blob: a push after this one finds none of its blobs present. */
  clear(): void {
    this.#blobs.clear();
  }
}

const registry = new MemoryBlobs();

/** `pushSnapshot` of the export file into memory, as `vm:latest`; blobs of an earlier round are forgotten first. */
export async function pushLocal(tar: string, knobs: Record<string, number>): Promise<void> {
  registry.clear();
  await pushSnapshot(readExportFile(tar), registry, { name: "vm", ...knobs });
}

/** `streamSnapshot` of `vm:latest` (from {@link pushLocal}) into `/dev/null`; returns the bytes written. */
export async function pullLocal(knobs: Record<string, number>): Promise<number> {
  const { data } = await registry.getManifest("vm", "latest");
  const sink = createWriteStream("/dev/null");
  await streamSnapshot(data, registry, { name: "vm", output: sink, memoryBudgetMiB: knobs.memoryBudgetMiB ?? 0 });
  return sink.bytesWritten;
}
