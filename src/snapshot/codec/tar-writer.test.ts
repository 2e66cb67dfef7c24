import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, describe, expect, it, vi } from "vitest";
import { exportOf, memoryLike, readImport } from "../snapshot-files.test-util.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "../push/push.js";
import { BodySlabs, SlabPool } from "../../internal/body-slabs.js";
import { OUTPUT_BUFFERED } from "../io/output-sink.js";
import { TarWriter } from "./tar-writer.js";

const dir = mkdtempSync(path.join(tmpdir(), "tar-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const finished = (out: NodeJS.WritableStream): Promise<void> => new Promise((resolve) => out.end(resolve));

describe("TarWriter.onTaken", () => {
  it("gives a slab back, as a raw layer does, through its own body's slabs once a file has taken it, never another body's", async () => {
    const file = path.join(dir, "slabs.tar");
    const out = createWriteStream(file);
    const tw = new TarWriter(out);
    const pool = new SlabPool();
    const [mine, theirs] = [new BodySlabs(pool), new BodySlabs(pool)];
    const slabOf = (body: BodySlabs, fill: string): Buffer => {
      const slab = body.take(8192);
      memoryLike(8192, fill).copy(slab);
      body.retire(slab, 8192);
      return slab;
    };
    const [a, b] = [slabOf(mine, "a"), slabOf(theirs, "b")];
    const expected = Buffer.concat([a, b]);
    await tw.writeHeader({ name: "f", size: expected.length, mode: 0o600, mtime: 0 });
    await tw.write(a);
    const freeWhenTaken = (piece: Uint8Array): void => {
      if (mine.endsSlab(piece)) tw.onTaken(() => mine.free(piece));
    };
    freeWhenTaken(a);
    await tw.write(b);
    freeWhenTaken(b); // `b` is of another body: `mine` leaves it alone
    await tw.close();
    await finished(out);
    expect([a.byteLength, b.byteLength, pool.size]).toEqual([0, 8192, 1]);
    expect(b.equals(memoryLike(8192, "b"))).toBe(true);
    expect(
      readFileSync(file)
        .subarray(512, 512 + expected.length)
        .equals(expected),
    ).toBe(true);
  });
});

describe("TarWriter.release", () => {
  it("frees written buffers once a file stream has taken them, and the file holds every byte", async () => {
    const file = path.join(dir, "released.tar");
    const out = createWriteStream(file);
    const tw = new TarWriter(out);
    const own = (data: Buffer): Buffer => {
      const b = Buffer.allocUnsafeSlow(data.length); // an ArrayBuffer of its own, as a decoded piece has
      data.copy(b);
      return b;
    };
    const pieces = [own(memoryLike(8192, "a")), own(memoryLike(8192, "b"))];
    const expected = Buffer.concat(pieces);
    await tw.writeHeader({ name: "f", size: expected.length, mode: 0o600, mtime: 0 });
    for (const p of pieces) await tw.write(p);
    tw.release(pieces);
    await tw.close();
    await finished(out);
    for (const p of pieces) expect(p.buffer.byteLength).toBe(0);
    expect(
      readFileSync(file)
        .subarray(512, 512 + expected.length)
        .equals(expected),
    ).toBe(true);
  });

  it("leaves buffers alone for a writable that may keep them (a PassThrough)", async () => {
    const out = new PassThrough();
    const kept: Buffer[] = [];
    out.on("data", (c: Buffer) => kept.push(c));
    const tw = new TarWriter(out);
    const piece = memoryLike(8192, "c");
    await tw.writeHeader({ name: "f", size: piece.length, mode: 0o600, mtime: 0 });
    await tw.write(piece);
    tw.release([piece]);
    await tw.close();
    await finished(out);
    expect(piece.buffer.byteLength).toBeGreaterThan(0);
    expect(
      Buffer.concat(kept)
        .subarray(512, 512 + piece.length)
        .equals(piece),
    ).toBe(true);
  });
});

describe("TarWriter backpressure", () => {
  it("lets small pieces queue past the output's mark, so the output writes them in batches, and waits past 4 MiB", async () => {
    let calls = 0;
    let most = 0;
    const out = new Writable({
      highWaterMark: 64 << 10,
      write(_chunk, _enc, cb) {
        calls++;
        setTimeout(cb, 1);
      },
      writev(_chunks, cb) {
        calls++;
        setTimeout(cb, 1);
      },
    });
    const tw = new TarWriter(out);
    const piece = Buffer.alloc(16 << 10, 1);
    const count = 1024; // 16 MiB in 16 KiB pieces, as a v1 pull's network reads come
    await tw.writeHeader({ name: "f", size: count * piece.length, mode: 0o600, mtime: 0 });
    for (let i = 0; i < count; i++) {
      await tw.write(piece);
      most = Math.max(most, out.writableLength);
    }
    await tw.close();
    await finished(out);
    expect(calls).toBeLessThan(20); // one write or writev per batch, not one per piece
    expect(most).toBeLessThanOrEqual(OUTPUT_BUFFERED + piece.length);
    expect(most).toBeGreaterThan(64 << 10);
  });
});

describe("a windowed v2 pull into a file", () => {
  it("writes the same import tar as into a collecting writable, decoding into a few reused buffers", async () => {
    const memory = memoryLike((19 << 20) + 77, "m");
    const reg = new MemoryRegistry();
    const pushed = await pushSnapshot(exportOf("vm", [{ name: "memory-ranges", data: memory }]), reg, {
      name: "vm",
      zstdLevel: 3,
      chunkSizeMiB: 1,
      now: () => 0,
    });
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output, memoryBudgetMiB: 64, now: () => 0 });
    const file = path.join(dir, "pulled.tar");
    const allocations = vi.spyOn(Buffer, "allocUnsafeSlow");
    try {
      await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: createWriteStream(file), memoryBudgetMiB: 64, now: () => 0 });
      // 20 chunks of 1 MiB. In use at once: the one fetched ahead, the one written, and those the
      // file has not taken yet: up to the writer's 4 MiB of buffering, and one more.
      const decodedBuffers = allocations.mock.calls.filter(([size]) => size > 1 << 20);
      expect(decodedBuffers.length).toBeGreaterThanOrEqual(2);
      expect(decodedBuffers.length).toBeLessThanOrEqual(7);
    } finally {
      allocations.mockRestore();
    }
    const bytes = readFileSync(file);
    expect(bytes.equals(sink.bytes())).toBe(true);
    const entries = await readImport(bytes);
    expect(Buffer.from(entries.find((e) => e.name === "memory-ranges")?.data ?? []).equals(memory)).toBe(true);
  });
});
