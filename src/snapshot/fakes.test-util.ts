// Test-only registry fakes with the semantics of the Go vectors' README ("The fakes").
import { createHash } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { goVectorNames, readGoVector } from "../internal/go-vectors.test-util.js";
import type { FetchedManifest, Registry, RegistryCallOptions } from "../oci/registry.js";

/** One recorded Uploader call. */
export interface UploadCall {
  readonly call: "HasBlob" | "PutBlob" | "PutManifest";
  readonly name: string;
  readonly digest?: string;
  readonly tag?: string;
  readonly size?: number;
  readonly contentType?: string;
  readonly exists?: boolean;
}

/** Raised by the fake for an absent blob, with Go's text. */
export class BlobNotFound extends Error {
  override name = "BlobNotFound";
}

const sha = (b: Uint8Array): string => `sha256:${createHash("sha256").update(b).digest("hex")}`;

/** An in-memory registry: HasBlob answers from the map, PutBlob checks length and digest, GetBlob does not verify. */
export class MemoryRegistry implements Registry {
  readonly blobs = new Map<string, Uint8Array>();
  readonly manifests = new Map<string, { data: Uint8Array; contentType: string }>();
  readonly calls: UploadCall[] = [];
  /** Chunk size of served blob streams. */
  servedChunk = 64 * 1024;

  /** Loads every `sha256-<hex>` file of a Go vector directory (e.g. `registry/snapshot/v1-basic/blobs`). */
  loadBlobs(dir: string): void {
    for (const f of goVectorNames(dir)) this.blobs.set(f.replace("-", ":"), readGoVector(`${dir}/${f}`));
  }

  async hasBlob(name: string, digest: string): Promise<boolean> {
    const exists = this.blobs.has(digest);
    this.calls.push({ call: "HasBlob", name, digest, exists });
    return exists;
  }

  async putBlob(name: string, digest: string, body: AsyncIterable<Uint8Array>, size: number): Promise<void> {
    const parts: Uint8Array[] = [];
    for await (const c of body) parts.push(c);
    const data = Buffer.concat(parts);
    this.calls.push({ call: "PutBlob", name, digest, size });
    if (data.length !== size || sha(data) !== digest) throw new Error(`put blob ${digest}: body does not match`);
    this.blobs.set(digest, data);
  }

  async putManifest(name: string, tag: string, data: Uint8Array, contentType: string): Promise<void> {
    this.calls.push({ call: "PutManifest", name, tag, digest: sha(data), size: data.length, contentType });
    this.manifests.set(`${name}:${tag}`, { data, contentType });
    this.manifests.set(`${name}@${sha(data)}`, { data, contentType });
  }

  async getManifest(name: string, reference: string): Promise<FetchedManifest> {
    const m = this.manifests.get(reference.includes(":") ? `${name}@${reference}` : `${name}:${reference}`);
    if (m === undefined) throw new Error("manifest not found");
    return m;
  }

  async getBlob(_name: string, digest: string, options?: RegistryCallOptions): Promise<Readable> {
    const data = this.blobs.get(digest);
    if (data === undefined) throw new BlobNotFound("blob not found");
    const parts: Uint8Array[] = [];
    for (let at = 0; at < data.length; at += this.servedChunk) parts.push(data.subarray(at, at + this.servedChunk));
    return Readable.from(parts, options?.signal ? { signal: options.signal } : {});
  }

  async hasManifest(name: string, reference: string): Promise<boolean> {
    return this.manifests.has(`${name}:${reference}`) || this.manifests.has(`${name}@${reference}`);
  }

  async deleteManifest(name: string, reference: string): Promise<void> {
    this.manifests.delete(`${name}:${reference}`);
  }
}

/** A writable that keeps what it is given. */
export function collector(): { output: Writable; bytes: () => Buffer } {
  const parts: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _enc, cb) {
      parts.push(Buffer.from(chunk));
      cb();
    },
  });
  return { output, bytes: () => Buffer.concat(parts) };
}

/** Parses a case's `now` into epoch milliseconds. */
export function clockOf(opts: { nowUnixMilli?: number; now?: string }): () => number {
  const ms = opts.nowUnixMilli ?? Date.parse(opts.now ?? "");
  return () => ms;
}

/** A comparable key of one Uploader call, ours ({@link UploadCall}) or Go's (`op` instead of `call`). */
export function callKey(c: {
  op?: string | undefined;
  call?: string | undefined;
  name: string;
  digest?: string | undefined;
  size?: number | undefined;
  exists?: boolean | undefined;
  tag?: string | undefined;
  contentType?: string | undefined;
}): string {
  return JSON.stringify([c.op ?? c.call, c.name, c.digest, c.tag, c.exists, c.size, c.contentType]);
}
