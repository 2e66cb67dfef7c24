// Test-only: snapshot artifacts written by hand, byte by byte, as a hostile registry would serve them.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { FetchedManifest, RegistryCallOptions } from "../oci/registry.js";
import { encodeTarHeader } from "./codec/tar-header.js";
import { MemoryRegistry } from "./fakes.test-util.js";

/** `sha256:<hex>` of `data`. */
export const digestOf = (data: Uint8Array | string): string => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** A {@link MemoryRegistry} that records every read: `manifest <ref>` and `blob <digest>`, in order. */
export class CountingRegistry extends MemoryRegistry {
  readonly reads: string[] = [];

  override async getManifest(name: string, reference: string): Promise<FetchedManifest> {
    this.reads.push(`manifest ${reference}`);
    return super.getManifest(name, reference);
  }

  override async getBlob(name: string, digest: string, options?: RegistryCallOptions): Promise<Readable> {
    this.reads.push(`blob ${digest}`);
    return super.getBlob(name, digest, options);
  }

  /** Stores `data` as a blob and returns its digest. */
  put(data: Uint8Array | string): string {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    const digest = digestOf(bytes);
    this.blobs.set(digest, bytes);
    return digest;
  }
}

/** The media type of an OCI image index. */
export const OCI_INDEX = "application/vnd.oci.image.index.v1+json";

/** An OCI image index naming `manifest` (the exact bytes) as its linux/amd64 child. */
export function indexFor(manifest: Uint8Array): Buffer {
  const child = { digest: digestOf(manifest), size: manifest.length, platform: { os: "linux", architecture: "amd64" } };
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: "application/vnd.oci.image.manifest.v1+json", ...child }],
    }),
  );
}

/** One layer descriptor as JSON text. */
export function layerJSON(mediaType: string, digest: string, size: number, title: string): string {
  return `{"mediaType":${JSON.stringify(mediaType)},"digest":"${digest}","size":${size},"annotations":{"org.opencontainers.image.title":${JSON.stringify(title)}}}`;
}

/**
 * Stores `configJSON` as the config blob and returns the manifest bytes naming it and `layers`
 * (JSON texts), v1 or v2.
 */
export function manifestBytes(reg: CountingRegistry, configJSON: string, layers: readonly string[], v2 = false): Buffer {
  const config = reg.put(configJSON);
  const artifactType = v2 ? "application/vnd.cocoonstack.snapshot.v2+json" : "application/vnd.cocoonstack.snapshot.v1+json";
  return Buffer.from(
    `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"${artifactType}",` +
      `"config":{"mediaType":"application/vnd.cocoonstack.snapshot.config.v1+json","digest":"${config}","size":${Buffer.byteLength(configJSON)}},` +
      `"layers":[${layers.join(",")}]}`,
  );
}

/** One 512-byte USTAR header block, written field by field: `name`, type flag, `size`, mode 0640, checksum. */
export function tarBlock(name: string, typeflag: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, "latin1");
  block.write("0000640\0", 100, "latin1");
  block.write("0000000\0", 108, "latin1");
  block.write("0000000\0", 116, "latin1");
  block.write(`${size.toString(8).padStart(11, "0")}\0`, 124, "latin1");
  block.write("00000000000\0", 136, "latin1");
  block.write(typeflag, 156, "latin1");
  block.write("ustar\0" + "00", 257, "latin1");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

/** `data` padded with zeros to whole 512-byte blocks. */
export function padded(data: Uint8Array | string): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data);
  return Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
}

/** A regular-file-like entry of type `typeflag`: its header and padded body. */
export function tarEntry(name: string, data: Uint8Array | string, typeflag = "0"): Buffer {
  return Buffer.concat([tarBlock(name, typeflag, Buffer.byteLength(data)), padded(data)]);
}

/** A regular entry with these PAX records, encoded as Go's tar writer would, whatever they say: what the export writer refuses to write. */
export function paxEntry(name: string, data: Uint8Array | string, records: Readonly<Record<string, string>>): Buffer {
  const header = encodeTarHeader({ name, size: Buffer.byteLength(data), mode: 0o640, mtime: 0, pax: records });
  return Buffer.concat([header, padded(data)]);
}

/** `snapshot.json` of the VM `vm`, the smallest envelope a push takes. */
export const envelopeEntry = (vm = "vm"): Buffer => tarEntry("snapshot.json", `{"version":1,"config":{"id":"snap-1","name":"${vm}"}}`);

/** A PAX `x` header whose data is `records` as given (not re-encoded). */
export function paxHeader(records: Uint8Array | string): Buffer {
  return Buffer.concat([tarBlock("PaxHeaders.0/x", "x", Buffer.byteLength(records)), padded(records)]);
}

/** The two zero blocks that end an archive. */
export const TRAILER = Buffer.alloc(1024);

/** `bytes` as an export stream of `piece`-byte pieces. */
export async function* pieces(bytes: Uint8Array, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}
