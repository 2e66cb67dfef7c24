import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { directReadable } from "./direct-readable.js";

/** A source that yields `pieces` as they are, counting the pieces it was asked for and noting when it was closed. */
function sourceOf(pieces: readonly Uint8Array[], gate?: Promise<void>) {
  const seen = { pulled: 0, finished: false };
  async function* gen(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for (const [i, piece] of pieces.entries()) {
        if (i === 1 && gate !== undefined) await gate;
        seen.pulled++;
        yield piece;
      }
    } finally {
      seen.finished = true;
    }
  }
  return { source: gen(), seen };
}

const text = (u: Uint8Array): string => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString("latin1");
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("directReadable", () => {
  it("gives a first for-await loop the source's very pieces, unmerged, then destroys the stream", async () => {
    const pieces = [Buffer.from("a"), new Uint8Array([98, 98]), Buffer.from("ccc"), new Uint8Array(0).subarray(0), Buffer.from("d")];
    const { source, seen } = sourceOf(pieces);
    const stream = directReadable(source);
    const got: unknown[] = [];
    for await (const piece of stream) got.push(piece);
    expect(got).toHaveLength(pieces.length);
    for (const [i, piece] of pieces.entries()) expect(got[i]).toBe(piece);
    expect(seen).toEqual({ pulled: 5, finished: true });
    expect(stream.destroyed).toBe(true);
  });

  it("does not touch the source before it is read", async () => {
    const { source, seen } = sourceOf([Buffer.from("a")]);
    const stream = directReadable(source);
    await tick();
    expect(seen).toEqual({ pulled: 0, finished: false });
    expect(stream.destroyed).toBe(false);
  });

  it("closes the source, and destroys the stream, when the loop breaks out", async () => {
    const pieces = [Buffer.from("a"), Buffer.from("b"), Buffer.from("c")];
    const { source, seen } = sourceOf(pieces);
    const stream = directReadable(source);
    const got: unknown[] = [];
    for await (const piece of stream) {
      got.push(piece);
      break;
    }
    expect(got).toEqual([pieces[0]]);
    expect(got[0]).toBe(pieces[0]);
    expect(seen).toEqual({ pulled: 1, finished: true });
    expect(stream.destroyed).toBe(true);
  });

  it("passes the source's error to the loop as it is, and destroys the stream", async () => {
    const boom = new Error("boom");
    let finished = false;
    async function* failing(): AsyncGenerator<Uint8Array, void, undefined> {
      try {
        yield Buffer.from("a");
        throw boom;
      } finally {
        finished = true;
      }
    }
    const stream = directReadable(failing());
    const got: string[] = [];
    const err = await (async () => {
      for await (const piece of stream) got.push(text(piece as Uint8Array));
    })().catch((e: unknown) => e);
    expect(err).toBe(boom);
    expect(got).toEqual(["a"]);
    expect(finished).toBe(true);
    expect(stream.destroyed).toBe(true);
  });

  it("gives 'data' listeners the same bytes, then ends", async () => {
    const { source, seen } = sourceOf([Buffer.from("ab"), Buffer.from("cd"), Buffer.from("e")]);
    const stream = directReadable(source);
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve, reject) => stream.on("end", resolve).on("error", reject));
    expect(Buffer.concat(chunks).toString()).toBe("abcde");
    expect(seen).toEqual({ pulled: 3, finished: true });
  });

  it("pipes the same bytes", async () => {
    const { source } = sourceOf([Buffer.from("one "), new Uint8Array([116, 119, 111]), Buffer.from(" three")]);
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    await pipeline(directReadable(source), sink);
    expect(Buffer.concat(chunks).toString()).toBe("one two three");
  });

  it("takes the stream's path in a loop that follows a read() that got bytes, losing none", async () => {
    const { source } = sourceOf([Buffer.from("ab"), Buffer.from("cd"), Buffer.from("ef")]);
    const stream = directReadable(source);
    stream.read(0);
    for (let i = 0; i < 10 && stream.readableLength === 0; i++) await tick();
    expect(stream.readableLength).toBe(2);
    // Takes one byte: the rest of the first piece stays in the stream's buffer, which the source no longer has.
    const first = stream.read(1) as Buffer;
    expect(first.toString()).toBe("a");
    expect(stream.readableDidRead).toBe(true);
    expect(stream.readableFlowing).toBe(null);
    const rest: Buffer[] = [];
    for await (const piece of stream) rest.push(piece as Buffer);
    expect(Buffer.concat(rest).toString()).toBe("bcdef");
  });

  it("takes the stream's path in a loop that follows 'data' listening, losing none", async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { source } = sourceOf([Buffer.from("ab"), Buffer.from("cd"), Buffer.from("ef")], gate);
    const stream = directReadable(source);
    const first = await new Promise<Buffer>((resolve) => {
      stream.once("data", (chunk: Buffer) => {
        stream.pause();
        resolve(chunk);
      });
    });
    expect(first.toString()).toBe("ab");
    expect(stream.readableFlowing).toBe(false);
    open();
    const rest: Buffer[] = [];
    for await (const piece of stream) rest.push(piece as Buffer);
    expect(Buffer.concat(rest).toString()).toBe("cdef");
  });

  it("takes the stream's path in a loop that follows pause() with data already buffered, losing none", async () => {
    const { source } = sourceOf([Buffer.from("ab"), Buffer.from("cd")]);
    const stream = directReadable(source);
    stream.pause();
    stream.read(0);
    for (let i = 0; i < 10 && stream.readableLength === 0; i++) await tick();
    expect(stream.readableLength).toBe(2);
    expect(stream.readableDidRead).toBe(false);
    const got: Buffer[] = [];
    for await (const piece of stream) got.push(piece as Buffer);
    expect(Buffer.concat(got).toString()).toBe("abcd");
  });

  // A read() that returned null has already made the stream pull from the source, though neither
  // readableDidRead nor readableFlowing says so.
  it("takes the stream's path in a loop that follows a read() that got nothing yet, losing none", async () => {
    const { source } = sourceOf([Buffer.from("a"), Buffer.from("b"), Buffer.from("c")]);
    const stream = directReadable(source);
    expect(stream.read()).toBe(null);
    const got: Buffer[] = [];
    for await (const piece of stream) got.push(piece as Buffer);
    expect(Buffer.concat(got).toString()).toBe("abc");
  });

  it("pauses the stream while a direct loop runs, so another reader takes the stream's path, and destroys it when closed early", async () => {
    const { source, seen } = sourceOf([Buffer.from("a"), Buffer.from("b")]);
    const stream = directReadable(source);
    const outer = stream[Symbol.asyncIterator]();
    const first = await outer.next();
    expect(first.done === false && text(first.value as Uint8Array)).toBe("a");
    expect(stream.readableFlowing).toBe(false);
    expect(stream.destroyed).toBe(false);
    await outer.return?.(undefined);
    expect(stream.destroyed).toBe(true);
    expect(seen).toEqual({ pulled: 1, finished: true });
  });

  it("fails a loop over a stream a direct loop already finished as a destroyed stream's loop does", async () => {
    const { source, seen } = sourceOf([Buffer.from("a"), Buffer.from("b")]);
    const stream = directReadable(source);
    const firstLoop: string[] = [];
    for await (const piece of stream) firstLoop.push(text(piece as Uint8Array));
    expect(firstLoop).toEqual(["a", "b"]);
    const second: unknown[] = [];
    const outcome = await (async () => {
      for await (const piece of stream) second.push(piece);
    })().then(
      () => "ended",
      (e: unknown) => (e as { code?: string }).code,
    );
    expect(outcome).toBe("ERR_STREAM_PREMATURE_CLOSE");
    expect(second).toEqual([]);
    expect(seen).toEqual({ pulled: 2, finished: true });
  });
});
