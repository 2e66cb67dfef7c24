import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, WriteStream } from "node:fs";
import { createServer, type Server, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { pullSnapshot, streamCloudImage, streamSnapshot } from "../../src/snapshot/index.js";
import { OUTPUT_BUFFERED } from "../../src/snapshot/io/output-sink.js";
import { pushSnapshot } from "../../src/snapshot/push/push.js";
import { exportOf, memoryLike } from "../../src/snapshot/snapshot-files.test-util.js";
import { anchor, cloudImage, consumer, GatedRegistry, outcome, socketConsumer } from "./support/wake.js";

// Rule 6: a wake writes every byte or fails, whatever its output does.
const dir = mkdtempSync(path.join(tmpdir(), "wake-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a failed output gives: ERR_SNAPSHOT_OUTPUT, its cause the output's own error (none when it only closed). */
function expectOutputError(err: unknown, causes: readonly (string | undefined)[]): void {
  if (!isCocoonError(err, "ERR_SNAPSHOT_OUTPUT")) throw new Error(`expected ERR_SNAPSHOT_OUTPUT, got ${String(err)}`, { cause: err });
  expect(causes).toContain((err.cause as NodeJS.ErrnoException | undefined)?.code);
}

/** A pull of `size` bytes of memory, pushed as v1 (one raw layer), stored under `vm:hibernate`. */
async function bigSnapshot(size: number): Promise<GatedRegistry> {
  const reg = new GatedRegistry();
  const files = [{ name: "memory-ranges", data: memoryLike(size, "m") }];
  await pushSnapshot(exportOf("vm", files), reg, { name: "vm", tag: "hibernate", now: () => 0 });
  reg.reads.length = 0;
  return reg;
}

/** Resolves after `ms`, to `"still pending"`: what a stuck call looks like next to {@link outcome}. */
const pending = async (ms: number): Promise<string> => sleep(ms, "still pending");

describe("a full device", () => {
  it("/dev/full: a pull rejects with ERR_SNAPSHOT_OUTPUT (ENOSPC as cause), never resolves", async () => {
    expect(existsSync("/dev/full")).toBe(true);
    const a = await anchor("v1-basic");
    const out = createWriteStream("/dev/full");
    const err = await outcome(pullSnapshot(a.reg, a.reference, out, { now: a.now }));
    expectOutputError(err, ["ENOSPC"]);
    expect((err as Error).message).toBe("write import tar: the output failed: ENOSPC: no space left on device, write");
    expect(out.destroyed).toBe(true);
  });

  it("/dev/full: a cloud image rejects the same way", async () => {
    const reg = new GatedRegistry();
    const manifest = cloudImage(reg, memoryLike(256 << 10, "d"));
    const out = createWriteStream("/dev/full");
    const err = await outcome(streamCloudImage(manifest, reg, { name: "img", output: out }));
    expectOutputError(err, ["ENOSPC"]);
    expect((err as Error).message).toBe("write cloud image: the output failed: ENOSPC: no space left on device, write");
    expect(out.destroyed).toBe(true);
  });
});

describe("a consumer that exits", () => {
  it("mid-stream (after 4 KiB of 8 MiB): the pull rejects with ERR_SNAPSHOT_OUTPUT, no uncaught EPIPE", async () => {
    const reg = await bigSnapshot(8 << 20);
    const c = consumer(4096);
    try {
      const err = await outcome(pullSnapshot(reg, "vm:hibernate", c.child.stdin, { now: () => 0 }));
      // The kernel's EPIPE (or ECONNRESET), or Node destroying the stdin of a child that exited: whichever comes first.
      expectOutputError(err, ["EPIPE", "ECONNRESET", undefined]);
      expect(c.child.stdin.destroyed).toBe(true);
      await c.exited;
      expect(c.child.exitCode).toBe(0);
    } finally {
      c.kill();
    }
  });

  it("at the tar trailer (padding and the two zero blocks unsent): the pull rejects, never resolves", async () => {
    const a = await anchor("v1-basic");
    const last = a.layers.at(-1) ?? { digest: "", size: 0 };
    const tail = ((512 - (last.size % 512)) % 512) + 1024;
    expect(tail).toBe(1485);
    const c = await socketConsumer(path.join(dir, "trailer.sock"), a.tar.length - tail);
    // The last layer's end comes only once the consumer has read every byte before it and exited.
    a.reg.hold(last.digest, last.size, c.exited);
    try {
      const err = await outcome(pullSnapshot(a.reg, a.reference, c.output, { now: a.now }));
      expectOutputError(err, ["EPIPE"]);
      expect((err as Error).message).toBe("write import tar: the output failed: write EPIPE");
      expect(c.output.destroyed).toBe(true);
      expect(a.reg.reads.length).toBe(1 + 1 + a.layers.length); // the manifest, the config, every layer once
    } finally {
      c.kill();
      c.close();
    }
  });

  it("600 bytes before the end of a cloud image: the stream rejects, never resolves", async () => {
    const reg = new GatedRegistry();
    const disk = memoryLike(256 << 10, "d");
    const manifest = cloudImage(reg, disk);
    const c = await socketConsumer(path.join(dir, "disk.sock"), disk.length - 600);
    const diskDigest = [...reg.blobs.keys()].at(-1) ?? "";
    reg.hold(diskDigest, disk.length - 600, c.exited);
    try {
      const err = await outcome(streamCloudImage(manifest, reg, { name: "img", output: c.output }));
      expectOutputError(err, ["EPIPE"]);
      expect((err as Error).message).toBe("write cloud image: the output failed: write EPIPE");
      expect(reg.reads).toEqual([`blob ${diskDigest}`]);
    } finally {
      c.kill();
      c.close();
    }
  });

  it("a child's stdin, 600 bytes before the end: Node destroys it at the exit, and the stream says so", async () => {
    const reg = new GatedRegistry();
    const disk = memoryLike(256 << 10, "d");
    const manifest = cloudImage(reg, disk);
    const c = consumer(disk.length - 600);
    reg.hold([...reg.blobs.keys()].at(-1) ?? "", disk.length - 600, c.exited);
    try {
      const err = await outcome(streamCloudImage(manifest, reg, { name: "img", output: c.child.stdin }));
      expectOutputError(err, [undefined]);
      expect((err as Error).message).toMatch(/^write cloud image: the output (was destroyed|closed) before it took every byte$/u);
    } finally {
      c.kill();
    }
  });
});

describe("an abort while the output is stuck", () => {
  it("rejects at once with the signal's reason while waiting for drain (a consumer that never reads)", async () => {
    const reg = await bigSnapshot(8 << 20);
    const c = consumer(undefined);
    const stop = new AbortController();
    const reason = new Error("wake cancelled");
    try {
      const pull = outcome(pullSnapshot(reg, "vm:hibernate", c.child.stdin, { now: () => 0, signal: stop.signal }));
      while (c.child.stdin.writableLength < OUTPUT_BUFFERED && !c.child.stdin.destroyed) await sleep(10); // the writer now waits for drain
      const at = performance.now();
      stop.abort(reason);
      expect(await Promise.race([pull, pending(1000)])).toBe(reason);
      expect(performance.now() - at).toBeLessThan(1000);
      expect(c.child.stdin.destroyed).toBe(true);
    } finally {
      c.kill();
    }
  });

  it("rejects at once with the signal's reason while waiting for the end (all written, none read)", async () => {
    // Below what the writer lets queue, so it hands over every byte and asks for the end.
    const reg = await bigSnapshot(OUTPUT_BUFFERED / 2);
    const c = consumer(undefined);
    const stop = new AbortController();
    const reason = new Error("wake cancelled");
    try {
      const pull = outcome(pullSnapshot(reg, "vm:hibernate", c.child.stdin, { now: () => 0, signal: stop.signal }));
      while (!c.child.stdin.writableEnded && !c.child.stdin.destroyed) await sleep(10); // every byte handed over, the end asked for
      stop.abort(reason);
      expect(await Promise.race([pull, pending(1000)])).toBe(reason);
      expect(c.child.stdin.destroyed).toBe(true);
    } finally {
      c.kill();
    }
  });
});

describe("an output that cannot take a byte is refused before any request", () => {
  const outputs = {
    ended: () => {
      const out = createWriteStream(path.join(dir, "ended"));
      out.end();
      return out;
    },
    destroyed: () => {
      const out = createWriteStream(path.join(dir, "destroyed"));
      out.destroy();
      return out;
    },
  };

  it.each(Object.entries(outputs))("%s: pullSnapshot, streamSnapshot and streamCloudImage refuse it", async (state, make) => {
    const a = await anchor("v1-basic");
    const want = `output is already ${state}`;
    for (const call of [
      () => pullSnapshot(a.reg, a.reference, make(), { now: a.now }),
      () => streamSnapshot(Buffer.from("{}"), a.reg, { name: a.name, output: make() }),
      () => streamCloudImage(Buffer.from("{}"), a.reg, { name: "img", output: make() }),
    ]) {
      const err = await outcome(call());
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
      expect((err as Error).message).toMatch(new RegExp(`^(snapshot|cloud image) stream: ${want}$`, "u"));
    }
    expect(a.reg.reads).toEqual([]);
  });
});

// A file stream whose `_write` keeps every chunk it is given, as a user's subclass may.
const FileStream = WriteStream as unknown as new (file: string) => WriteStream;
class KeepingFile extends FileStream {
  readonly kept: Uint8Array[] = [];
  override _write(chunk: Uint8Array, encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.kept.push(chunk);
    super._write(chunk, encoding, cb);
  }
  override _writev(chunks: { chunk: Uint8Array; encoding: BufferEncoding }[], cb: (err?: Error | null) => void): void {
    for (const c of chunks) this.kept.push(c.chunk);
    super._writev?.(chunks, cb);
  }
}

// A socket that keeps every chunk it is given.
class KeepingSocket extends Socket {
  readonly kept: Uint8Array[] = [];
  override _write(chunk: Uint8Array, encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.kept.push(chunk);
    super._write(chunk, encoding, cb);
  }
  override _writev(chunks: { chunk: Uint8Array; encoding: BufferEncoding }[], cb: (err?: Error | null) => void): void {
    for (const c of chunks) this.kept.push(c.chunk);
    super._writev?.(chunks, cb);
  }
}

/** A real TCP server on loopback that collects what one connection sends. */
async function collectingServer(): Promise<{ server: Server; port: number; received: Promise<Buffer> }> {
  let deliver: (b: Buffer) => void = () => undefined;
  const received = new Promise<Buffer>((resolve) => (deliver = resolve));
  const server = createServer((conn) => {
    const parts: Buffer[] = [];
    conn.on("data", (c: Buffer) => parts.push(c));
    conn.on("end", () => {
      deliver(Buffer.concat(parts));
      conn.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address !== null ? address.port : 0, received };
}

describe("buffers handed to a user's stream are never freed or reused", () => {
  it("a WriteStream subclass that keeps its chunks still holds exactly Go's import tar after a windowed v2 pull", async () => {
    const a = await anchor("v2-zstd-chunked");
    const file = path.join(dir, "kept.tar");
    const out = new KeepingFile(file);
    await pullSnapshot(a.reg, a.reference, out, { now: a.now });
    expect(readFileSync(file).equals(a.tar)).toBe(true);
    expect(out.kept.length).toBeGreaterThan(3);
    expect(Buffer.concat(out.kept).equals(a.tar)).toBe(true);
  });

  it("a net.Socket subclass that keeps its chunks still holds exactly Go's import tar; the peer got it too", async () => {
    const a = await anchor("v2-zstd-chunked");
    const { server, port, received } = await collectingServer();
    try {
      const out = new KeepingSocket();
      await new Promise<void>((resolve) => out.connect(port, "127.0.0.1", resolve));
      await pullSnapshot(a.reg, a.reference, out, { now: a.now });
      expect((await received).equals(a.tar)).toBe(true);
      expect(Buffer.concat(out.kept).equals(a.tar)).toBe(true);
    } finally {
      server.close();
    }
  });

  it("nothing shared is handed out: scribbling on one output's chunks leaves another's tar (and its trailer) intact", async () => {
    const a = await anchor("v1-basic");
    const keeping = (): { out: Writable; kept: Uint8Array[] } => {
      const kept: Uint8Array[] = [];
      const out = new Writable({
        write(chunk: Uint8Array, _enc, cb) {
          kept.push(chunk);
          cb();
        },
      });
      return { out, kept };
    };
    const first = keeping();
    const second = keeping();
    await pullSnapshot(a.reg, a.reference, first.out, { now: a.now });
    await pullSnapshot(a.reg, a.reference, second.out, { now: a.now });
    expect(Buffer.concat(first.kept).equals(a.tar)).toBe(true);
    // Blob bytes are the test registry's own (it serves views of what it stores); every other chunk is the pull's.
    const stored = new Set([...a.reg.blobs.values()].map((b) => b.buffer));
    const ours = first.kept.filter((chunk) => !stored.has(chunk.buffer));
    expect(ours.length).toBeGreaterThan(a.layers.length);
    for (const chunk of ours) chunk.fill(0xff);
    expect(Buffer.concat(second.kept).equals(a.tar)).toBe(true);
  });
});
