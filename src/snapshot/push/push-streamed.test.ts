import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import type { StreamedBlob, StreamedBlobOptions } from "../../oci/registry.js";
import { readExportFile } from "../io/export-file.js";
import { POSITIONAL_PIECE } from "../io/positional-pieces.js";
import { exportOf, memoryLike, readImport } from "../snapshot-files.test-util.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "./push.js";

/** A registry that can also take a body of unknown digest, as `OCIRegistry` does. */
class StreamingRegistry extends MemoryRegistry {
  readonly streamed: StreamedBlob[] = [];
  /** The `size` each streamed upload was given, the longest part and the buffers its parts lay in. */
  readonly bodies: { size: number | undefined; longest: number; buffers: number }[] = [];

  async putBlobStreamed(_name: string, body: AsyncIterable<Uint8Array>, options: StreamedBlobOptions = {}): Promise<StreamedBlob> {
    const parts: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const c of body) {
      parts.push(Buffer.from(c)); // a copy: the part's buffer may be read into again
      buffers.add(c.buffer);
    }
    this.bodies.push({ size: options.size, longest: Math.max(...parts.map((p) => p.length)), buffers: buffers.size });
    const data = Buffer.concat(parts);
    const blob = { digest: `sha256:${createHash("sha256").update(data).digest("hex")}`, size: data.length };
    this.blobs.set(blob.digest, data);
    this.streamed.push(blob);
    return blob;
  }
}

const BIG = memoryLike(17 * (1 << 20) + 1, "big");
const files = [
  { name: "small.raw", data: Buffer.from("small") },
  { name: "memory-ranges", data: BIG },
];

const dir = mkdtempSync(path.join(tmpdir(), "push-streamed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pushSnapshot with an uploader that streams", () => {
  it("from an export file, streams a v1 file above 16 MiB with its size, read into two reused 1 MiB buffers", async () => {
    const file = path.join(dir, "export.tar");
    writeFileSync(file, Buffer.concat(await Readable.from(exportOf("vm", files)).toArray()));
    const reg = new StreamingRegistry();
    const pushed = await pushSnapshot(readExportFile(file), reg, { name: "vm", now: () => 0 });
    expect(reg.bodies).toEqual([{ size: BIG.length, longest: POSITIONAL_PIECE, buffers: 2 }]);
    expect(reg.streamed).toEqual([{ digest: `sha256:${createHash("sha256").update(BIG).digest("hex")}`, size: BIG.length }]);
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output });
    const back = await readImport(sink.bytes());
    expect(Buffer.from(back.find((e) => e.name === "memory-ranges")?.data ?? []).equals(BIG)).toBe(true);
  });

  it("from an export file cut inside the streamed file, fails as the stream does", async () => {
    const file = path.join(dir, "cut.tar");
    const tar = Buffer.concat(await Readable.from(exportOf("vm", files)).toArray());
    writeFileSync(file, tar.subarray(0, tar.length - (4 << 20)));
    const reg = new StreamingRegistry();
    const err = await pushSnapshot(readExportFile(file), reg, { name: "vm" }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe("upload memory-ranges: buffer entry: unexpected EOF");
    expect(reg.streamed).toEqual([]);
  });

  it("streams a v1 file above 16 MiB without a HEAD first, and keeps Go's HEAD-then-PUT for the small ones", async () => {
    const reg = new StreamingRegistry();
    const pushed = await pushSnapshot(exportOf("vm", files), reg, { name: "vm", now: () => 0 });
    expect(reg.streamed).toEqual([{ digest: `sha256:${createHash("sha256").update(BIG).digest("hex")}`, size: BIG.length }]);
    expect(reg.calls.map((c) => c.call)).toEqual(["HasBlob", "PutBlob", "HasBlob", "PutBlob", "PutManifest"]);
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output });
    const back = await readImport(sink.bytes());
    expect(Buffer.from(back.find((e) => e.name === "memory-ranges")?.data ?? []).equals(BIG)).toBe(true);
  });

  it("a v2 zstd file above 16 MiB streams its frames the same way", async () => {
    const reg = new StreamingRegistry();
    const pushed = await pushSnapshot(exportOf("vm", files), reg, { name: "vm", zstdLevel: 3, now: () => 0 });
    expect(reg.streamed).toHaveLength(1);
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output });
    const back = await readImport(sink.bytes());
    expect(Buffer.from(back.find((e) => e.name === "memory-ranges")?.data ?? []).equals(BIG)).toBe(true);
  });

  it("an export cut inside the streamed file fails as Go's buffered read does", async () => {
    const tar = Buffer.concat(await Readable.from(exportOf("vm", files)).toArray());
    const cut = tar.subarray(0, tar.length - (4 << 20));
    const err = await pushSnapshot(Readable.from([cut]), new StreamingRegistry(), { name: "vm" }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe("upload memory-ranges: buffer entry: unexpected EOF");
  });
});
