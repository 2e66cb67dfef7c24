import { describe, expect, it } from "vitest";
import { BodySlabs, SlabPool } from "../../../internal/body-slabs.js";
import { BodyQueue, type BodyRead, QUEUE_LIMIT } from "./body-queue.js";

const KiB = 1024;
const MiB = 1024 * KiB;

/** A queue whose socket counts its resumes and cancels. */
function queueOf(maxPush: number) {
  const calls = { resume: 0, cancel: 0 };
  const socket = {
    resume: () => {
      calls.resume++;
    },
    cancel: () => {
      calls.cancel++;
    },
  };
  const queue = new BodyQueue(maxPush, socket, new BodySlabs(new SlabPool()));
  return { queue, calls };
}

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));
const text = (u: Uint8Array): string => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString("latin1");

/** The bytes of a read that must not be done. */
function valueOf(read: BodyRead): Uint8Array {
  if (read.done) throw new Error("expected bytes, got done");
  return read.value;
}

/** Where `p` stands once the current macrotask's follow-ups have run. */
async function stateOf(p: Promise<unknown>): Promise<"pending" | "resolved" | "rejected"> {
  let state: "pending" | "resolved" | "rejected" = "pending";
  p.then(
    () => (state = "resolved"),
    () => (state = "rejected"),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

/** `n` bytes, each `fill`. */
const block = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill);

describe("QUEUE_LIMIT", () => {
  it("is 2 MiB", () => {
    expect(QUEUE_LIMIT).toBe(2 * MiB);
  });
});

describe("BodyQueue", () => {
  it("receives a body whose head gave a length below a slab into a buffer of that size, not a pool slab", async () => {
    const pool = new SlabPool();
    const slabs = new BodySlabs(pool);
    const queue = new BodyQueue(64 * KiB, { resume: () => undefined, cancel: () => undefined }, slabs);
    queue.expect(20 * KiB);
    expect(queue.push(block(12 * KiB, 1), 0, 12 * KiB)).toBe(true);
    expect(queue.push(block(8 * KiB, 2), 0, 8 * KiB)).toBe(true);
    queue.end();
    const body = valueOf(await queue.read());
    expect([body.byteLength, body.buffer.byteLength, body[0], body[20 * KiB - 1]]).toEqual([20 * KiB, 20 * KiB, 1, 2]);
    expect(slabs.endsSlab(body)).toBe(false);
    slabs.free(body);
    expect(pool.size).toBe(0);
  });

  it("takes pool slabs for a body of a slab or more", async () => {
    const pool = new SlabPool();
    const slabs = new BodySlabs(pool);
    const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, slabs);
    queue.expect(MiB);
    for (let i = 0; i < 4; i++) queue.push(block(256 * KiB, i), 0, 256 * KiB);
    const body = valueOf(await queue.read());
    expect([body.byteLength, slabs.endsSlab(body)]).toEqual([MiB, true]);
    slabs.free(body);
    expect(pool.size).toBe(1);
  });

  it("hands out copies: the bytes stay intact after the pushed buffer is overwritten", async () => {
    const { queue } = queueOf(64);
    const buf = bytes("hello world");
    expect(queue.push(buf, 0, 5)).toBe(true);
    buf.fill(0x21);
    const value = valueOf(await queue.read());
    expect(text(value)).toBe("hello");
    expect(value.buffer).not.toBe(buf.buffer);
  });

  it("copies only buf[from..to)", async () => {
    const { queue } = queueOf(64);
    expect(queue.push(bytes("0123456789"), 3, 7)).toBe(true);
    queue.end();
    expect(text(valueOf(await queue.read()))).toBe("3456");
    expect(await queue.read()).toEqual({ done: true, value: undefined });
  });

  it("ignores an empty or inverted range", async () => {
    const { queue } = queueOf(64);
    expect(queue.push(bytes("abc"), 2, 2)).toBe(true);
    expect(queue.push(bytes("abc"), 3, 1)).toBe(true);
    queue.end();
    expect(await queue.read()).toEqual({ done: true, value: undefined });
  });

  it("resolves a pending read with the next push, exactly its bytes, then queues what follows", async () => {
    const { queue } = queueOf(64);
    const pending = queue.read();
    expect(await stateOf(pending)).toBe("pending");
    const src = bytes("xyz");
    expect(queue.push(src, 0, 3)).toBe(true);
    src.fill(0);
    expect(text(valueOf(await pending))).toBe("xyz");
    queue.push(bytes("123"), 0, 3);
    expect(text(valueOf(await queue.read()))).toBe("123");
  });

  it("gives the bytes in order, each read as it is asked", async () => {
    const { queue } = queueOf(64);
    const got: string[] = [];
    for (const piece of ["a", "bc", "def"]) {
      const next = queue.read();
      queue.push(bytes(piece), 0, piece.length);
      got.push(text(valueOf(await next)));
    }
    expect(got).toEqual(["a", "bc", "def"]);
  });

  it("coalesces pieces pushed while nobody reads into one view of the slab", async () => {
    const { queue } = queueOf(64);
    const first = queue.read();
    queue.push(bytes("ab"), 0, 2);
    const handed = valueOf(await first);
    for (const piece of ["cd", "ef", "gh"]) queue.push(bytes(piece), 0, 2);
    const merged = valueOf(await queue.read());
    expect(text(merged)).toBe("cdefgh");
    expect(merged.buffer).toBe(handed.buffer);
    expect(merged.byteOffset).toBe(handed.byteOffset + 2);
    // One view only: the next read waits for the next push.
    const next = queue.read();
    expect(await stateOf(next)).toBe("pending");
    queue.push(bytes("i"), 0, 1);
    expect(text(valueOf(await next))).toBe("i");
  });

  it("does not coalesce across slabs", async () => {
    const { queue } = queueOf(600 * KiB);
    queue.push(block(600 * KiB, 1), 0, 600 * KiB);
    queue.push(bytes("z"), 0, 1);
    const a = valueOf(await queue.read());
    const b = valueOf(await queue.read());
    expect(a.byteLength).toBe(600 * KiB);
    expect(a.every((x) => x === 1)).toBe(true);
    expect(text(b)).toBe("z");
    expect(b.buffer).not.toBe(a.buffer);
  });

  it("asks to pause once QUEUE_LIMIT bytes are queued, and resumes once, when a read brings it below", async () => {
    const piece = 64 * KiB;
    const { queue, calls } = queueOf(piece);
    const results: boolean[] = [];
    for (let i = 0; i < QUEUE_LIMIT / piece; i++) results.push(queue.push(block(piece, i), 0, piece));
    expect(results.slice(0, -1).every((r) => r)).toBe(true);
    expect(results.at(-1)).toBe(false);
    expect(results.length).toBe(32);
    // While paused, every push (even an empty one) still says pause; the bytes are kept.
    expect(queue.push(block(piece, 64), 0, piece)).toBe(false);
    expect(queue.push(block(1, 0), 0, 0)).toBe(false);
    expect(calls).toEqual({ resume: 0, cancel: 0 });

    // 16 pieces of 64 KiB fill a 1 MiB slab, coalesced into one view.
    const first = valueOf(await queue.read());
    expect(first.byteLength).toBe(MiB);
    for (let i = 0; i < 16; i++) expect(first[i * piece] === i && first[(i + 1) * piece - 1] === i).toBe(true);
    expect(calls).toEqual({ resume: 1, cancel: 0 });
    expect(valueOf(await queue.read()).byteLength).toBe(MiB);
    expect(calls).toEqual({ resume: 1, cancel: 0 });
    expect(queue.push(block(piece, 65), 0, piece)).toBe(true);

    let total = 2 * MiB;
    queue.end();
    for (;;) {
      const r = await queue.read();
      if (r.done) break;
      total += r.value.byteLength;
    }
    expect(total).toBe(QUEUE_LIMIT + 2 * piece);
    expect(calls).toEqual({ resume: 1, cancel: 0 });
  });

  it("stays paused while a read leaves QUEUE_LIMIT bytes or more queued", async () => {
    const piece = 64 * KiB;
    const { queue, calls } = queueOf(piece);
    for (let i = 0; i < QUEUE_LIMIT / piece + 16; i++) queue.push(block(piece, 1), 0, piece);
    expect(valueOf(await queue.read()).byteLength).toBe(MiB);
    expect(calls.resume).toBe(0);
    expect(valueOf(await queue.read()).byteLength).toBe(MiB);
    expect(calls.resume).toBe(1);
  });

  it("never resumes a source it did not pause", async () => {
    const { queue, calls } = queueOf(64);
    queue.push(bytes("a"), 0, 1);
    await queue.read();
    expect(calls).toEqual({ resume: 0, cancel: 0 });
  });

  it("ends: queued bytes first, then done for every read, and later pushes are dropped", async () => {
    const { queue, calls } = queueOf(64);
    queue.push(bytes("tail"), 0, 4);
    queue.end();
    expect(queue.push(bytes("late"), 0, 4)).toBe(true);
    expect(text(valueOf(await queue.read()))).toBe("tail");
    expect(await queue.read()).toEqual({ done: true, value: undefined });
    expect(await queue.read()).toEqual({ done: true, value: undefined });
    expect(calls).toEqual({ resume: 0, cancel: 0 });
  });

  it("ends a pending read as done", async () => {
    const { queue } = queueOf(64);
    const pending = queue.read();
    queue.end();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("fails a pending read and every later one with the very error, dropping queued bytes", async () => {
    const { queue } = queueOf(64);
    const pending = queue.read();
    const err = new Error("peer reset");
    queue.fail(err);
    await expect(pending).rejects.toBe(err);
    await expect(queue.read()).rejects.toBe(err);
    await expect(queue.read()).rejects.toBe(err);

    const dropped = queueOf(64).queue;
    dropped.push(bytes("lost"), 0, 4);
    const other = new TypeError("terminated");
    dropped.fail(other);
    expect(dropped.push(bytes("more"), 0, 4)).toBe(true);
    await expect(dropped.read()).rejects.toBe(other);
  });

  it("keeps the first outcome: end then fail stays ended, fail then end stays failed", async () => {
    const ended = queueOf(64).queue;
    ended.end();
    ended.fail(new Error("late"));
    expect(await ended.read()).toEqual({ done: true, value: undefined });

    const failed = queueOf(64).queue;
    const first = new Error("first");
    failed.fail(first);
    failed.fail(new Error("second"));
    failed.end();
    await expect(failed.read()).rejects.toBe(first);
  });

  it("refuses a second read while one is pending, and still serves the first", async () => {
    const { queue } = queueOf(64);
    const first = queue.read();
    await expect(queue.read()).rejects.toThrow(new TypeError("body already being read"));
    await expect(queue.read()).rejects.toBeInstanceOf(TypeError);
    queue.push(bytes("ok"), 0, 2);
    expect(text(valueOf(await first))).toBe("ok");
  });

  it("cancels: a pending read ends as done, the source is closed once, and queued or later bytes are dropped", async () => {
    const { queue, calls } = queueOf(64);
    const pending = queue.read();
    await expect(queue.cancel()).resolves.toBeUndefined();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(calls).toEqual({ resume: 0, cancel: 1 });
    queue.push(bytes("x"), 0, 1);
    expect(await queue.read()).toEqual({ done: true, value: undefined });

    const other = queueOf(64);
    other.queue.push(bytes("queued"), 0, 6);
    await other.queue.cancel();
    expect(await other.queue.read()).toEqual({ done: true, value: undefined });
    expect(other.calls).toEqual({ resume: 0, cancel: 1 });
  });

  it("cancel after a failure keeps the failure and still closes the source", async () => {
    const { queue, calls } = queueOf(64);
    const err = new Error("boom");
    queue.fail(err);
    await queue.cancel();
    await expect(queue.read()).rejects.toBe(err);
    expect(calls.cancel).toBe(1);
  });

  describe("stream", () => {
    it("gives the same bytes as a web stream, then closes", async () => {
      const { queue } = queueOf(64);
      const reader = queue.stream().getReader();
      const first = reader.read();
      queue.push(bytes("ab"), 0, 2);
      const r1 = await first;
      expect(r1.done).toBe(false);
      expect(r1.value && text(r1.value)).toBe("ab");
      queue.push(bytes("cd"), 0, 2);
      queue.push(bytes("ef"), 0, 2);
      queue.end();
      const got: string[] = [];
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        got.push(text(r.value));
      }
      expect(got).toEqual(["cdef"]);
    });

    it("does not read ahead: what is queued stays in the queue until the stream is read", async () => {
      const { queue } = queueOf(64);
      queue.push(bytes("abc"), 0, 3);
      const stream = queue.stream();
      await new Promise((resolve) => setImmediate(resolve));
      const direct = queue.read();
      expect(await stateOf(direct)).toBe("resolved");
      expect(text(valueOf(await direct))).toBe("abc");
      expect(stream.locked).toBe(false);
    });

    it("cancelling the stream cancels the queue and closes the source once", async () => {
      const { queue, calls } = queueOf(64);
      queue.push(bytes("abc"), 0, 3);
      await queue.stream().cancel();
      expect(calls).toEqual({ resume: 0, cancel: 1 });
      expect(await queue.read()).toEqual({ done: true, value: undefined });
    });

    it("errors the stream with the very error the queue failed with", async () => {
      const { queue } = queueOf(64);
      const reader = queue.stream().getReader();
      const pending = reader.read();
      const err = new Error("reset");
      queue.fail(err);
      await expect(pending).rejects.toBe(err);
    });
  });

  describe("slabs", () => {
    it("retires a slab with its last piece once less than maxPush is left in it", async () => {
      const { queue } = queueOf(600 * KiB);
      queue.push(block(600 * KiB, 7), 0, 600 * KiB);
      const piece = valueOf(await queue.read());
      expect(piece.byteOffset).toBe(0);
      expect(piece.byteLength).toBe(600 * KiB);
      expect(piece.buffer.byteLength).toBe(MiB);
      expect(queue.slabs.endsSlab(piece)).toBe(true);
      queue.push(bytes("n"), 0, 1);
      const next = valueOf(await queue.read());
      expect(next.buffer).not.toBe(piece.buffer);
      expect(next.byteOffset).toBe(0);
      expect(queue.slabs.endsSlab(next)).toBe(false);
    });

    it("keeps a slab with exactly maxPush left, and retires it on the push that leaves less", async () => {
      const { queue } = queueOf(512 * KiB);
      queue.push(block(512 * KiB, 1), 0, 512 * KiB);
      const a = valueOf(await queue.read());
      expect(queue.slabs.endsSlab(a)).toBe(false);
      queue.push(block(512 * KiB, 2), 0, 512 * KiB);
      const b = valueOf(await queue.read());
      expect(b.buffer).toBe(a.buffer);
      expect(b.byteOffset).toBe(512 * KiB);
      expect(queue.slabs.endsSlab(b)).toBe(true);
      expect(queue.slabs.endsSlab(a)).toBe(false);
    });

    it("marks a coalesced view that holds the slab's last bytes as its last piece", async () => {
      const { queue } = queueOf(512 * KiB);
      queue.push(block(512 * KiB, 1), 0, 512 * KiB);
      queue.push(block(512 * KiB, 2), 0, 512 * KiB);
      const whole = valueOf(await queue.read());
      expect(whole.byteOffset).toBe(0);
      expect(whole.byteLength).toBe(MiB);
      expect(queue.slabs.endsSlab(whole)).toBe(true);
      expect(whole[0]).toBe(1);
      expect(whole[MiB - 1]).toBe(2);
    });

    it("retires a slab handed straight to a pending read", async () => {
      const { queue } = queueOf(600 * KiB);
      const pending = queue.read();
      queue.push(block(600 * KiB, 3), 0, 600 * KiB);
      const piece = valueOf(await pending);
      expect(queue.slabs.endsSlab(piece)).toBe(true);
    });

    it("leaves a slab with room for another push unretired", async () => {
      const { queue } = queueOf(16);
      queue.push(bytes("abc"), 0, 3);
      const piece = valueOf(await queue.read());
      expect(queue.slabs.endsSlab(piece)).toBe(false);
      expect(piece.buffer.byteLength).toBe(MiB);
    });

    it("gives a push larger than a slab a slab of its own, retired at once", async () => {
      const n = MiB + 512 * KiB;
      const { queue } = queueOf(2 * MiB);
      queue.push(block(n, 9), 0, n);
      const piece = valueOf(await queue.read());
      expect(piece.byteLength).toBe(n);
      expect(piece.buffer.byteLength).toBe(n);
      expect(queue.slabs.endsSlab(piece)).toBe(true);
    });

    it("lets the reader free a retired slab once it has its last piece, leaving the queue working", async () => {
      const { queue } = queueOf(600 * KiB);
      queue.push(block(600 * KiB, 4), 0, 600 * KiB);
      const piece = valueOf(await queue.read());
      queue.slabs.free(piece);
      expect(piece.byteLength).toBe(0);
      queue.push(bytes("after"), 0, 5);
      expect(text(valueOf(await queue.read()))).toBe("after");
    });
  });
  describe("reads straight into the body's memory", () => {
    it("gives the free end of a pool slab; committed bytes are handed out from it, uncopied", async () => {
      const { queue } = queueOf(256 * KiB);
      const room = queue.room();
      expect([room.byteOffset, room.byteLength, room.buffer.byteLength]).toEqual([0, MiB, MiB]);
      room.set(bytes("direct"), 0);
      expect(queue.commit(6)).toBe(true);
      const piece = valueOf(await queue.read());
      expect([text(piece), piece.buffer, piece.byteOffset]).toEqual(["direct", room.buffer, 0]);
      const next = queue.room();
      expect([next.buffer, next.byteOffset, next.byteLength]).toEqual([room.buffer, 6, MiB - 6]);
    });

    it("coalesces commits, retires a slab once less than maxPush is left, and the next room is a fresh slab", async () => {
      const { queue } = queueOf(256 * KiB);
      const first = queue.room();
      first.fill(1, 0, 512 * KiB);
      queue.commit(512 * KiB);
      queue.room().fill(2, 0, 300 * KiB);
      queue.commit(300 * KiB);
      const whole = valueOf(await queue.read());
      expect([whole.byteOffset, whole.byteLength, whole[0], whole[812 * KiB - 1]]).toEqual([0, 812 * KiB, 1, 2]);
      expect(queue.slabs.endsSlab(whole)).toBe(true);
      const fresh = queue.room();
      expect(fresh.buffer).not.toBe(first.buffer);
      expect([fresh.byteOffset, fresh.byteLength]).toEqual([0, MiB]);
    });

    it("fills a small body's own buffer to its end, after bytes copied in", async () => {
      const pool = new SlabPool();
      const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, new BodySlabs(pool));
      queue.expect(20 * KiB);
      queue.push(block(5 * KiB, 1), 0, 5 * KiB);
      const room = queue.room();
      expect([room.byteOffset, room.byteLength, room.buffer.byteLength]).toEqual([5 * KiB, 15 * KiB, 20 * KiB]);
      room.fill(2);
      queue.commit(15 * KiB);
      queue.end();
      const body = valueOf(await queue.read());
      expect([body.byteLength, body[0], body[20 * KiB - 1], queue.slabs.endsSlab(body)]).toEqual([20 * KiB, 1, 2, false]);
    });

    it("asks to pause once QUEUE_LIMIT bytes are committed", () => {
      const { queue } = queueOf(256 * KiB);
      const results: boolean[] = [];
      for (let i = 0; i < QUEUE_LIMIT / (256 * KiB); i++) {
        queue.room();
        results.push(queue.commit(256 * KiB));
      }
      expect(results.indexOf(false)).toBe(QUEUE_LIMIT / (256 * KiB) - 1);
    });

    it("takes nothing once cancelled or failed, and nothing of an empty read", async () => {
      const { queue } = queueOf(256 * KiB);
      queue.room();
      expect(queue.commit(0)).toBe(true);
      await queue.cancel();
      queue.room().set(bytes("late"), 0);
      queue.commit(4);
      expect(await queue.read()).toEqual({ done: true, value: undefined });
      const failed = queueOf(256 * KiB).queue;
      const err = new Error("broken");
      failed.fail(err);
      failed.room();
      failed.commit(10);
      await expect(failed.read()).rejects.toBe(err);
    });
  });

  describe("receiveInto", () => {
    it("copies what is queued to the start of the caller's buffer, gives its slab back, and hands out views of that buffer from then on", async () => {
      const pool = new SlabPool();
      const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, new BodySlabs(pool));
      queue.push(bytes("head-"), 0, 5);
      const dest = new Uint8Array(20).fill(0xee);
      expect(queue.receiveInto(dest)).toBe(true);
      expect(pool.size).toBe(1);
      const room = queue.room();
      expect([room.buffer, room.byteOffset, room.byteLength]).toEqual([dest.buffer, 5, 15]);
      room.set(bytes("tail"), 0);
      queue.commit(4);
      const piece = valueOf(await queue.read());
      expect([text(piece), piece.buffer, piece.byteOffset]).toEqual(["head-tail", dest.buffer, 0]);
      expect(dest[9]).toBe(0xee);
      queue.push(bytes("more"), 0, 4);
      const pushed = valueOf(await queue.read());
      expect([text(pushed), pushed.buffer, pushed.byteOffset]).toEqual(["more", dest.buffer, 9]);
      expect(queue.slabs.endsSlab(pushed)).toBe(false);
    });

    it("copies over the read whose memory was given out before, then gives that slab back and lends the caller's buffer", async () => {
      const pool = new SlabPool();
      const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, new BodySlabs(pool));
      queue.push(bytes("ab"), 0, 2);
      const lent = queue.room();
      const dest = new Uint8Array(10).fill(0xee);
      expect(queue.receiveInto(dest)).toBe(true);
      expect(pool.size).toBe(0);
      lent.set(bytes("cde"), 0);
      expect(queue.commit(3)).toBe(true);
      expect([pool.size, lent.buffer.byteLength]).toEqual([1, 0]);
      const next = queue.room();
      expect([next.buffer, next.byteOffset, next.byteLength]).toEqual([dest.buffer, 5, 5]);
      next.set(bytes("fg"), 0);
      queue.commit(2);
      const piece = valueOf(await queue.read());
      expect([text(piece), piece.buffer, piece.byteOffset, dest[7]]).toEqual(["abcdefg", dest.buffer, 0, 0xee]);
    });

    it("copies over the read lent in a small body's own buffer, and leaves the pool alone", async () => {
      const pool = new SlabPool();
      const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, new BodySlabs(pool));
      queue.expect(20 * KiB);
      queue.push(block(5 * KiB, 1), 0, 5 * KiB);
      const lent = queue.room();
      expect([lent.byteOffset, lent.byteLength]).toEqual([5 * KiB, 15 * KiB]);
      const dest = new Uint8Array(20 * KiB);
      expect(queue.receiveInto(dest)).toBe(true);
      lent.fill(2, 0, 7 * KiB);
      queue.commit(7 * KiB);
      const next = queue.room();
      expect([next.buffer, next.byteOffset, next.byteLength]).toEqual([dest.buffer, 12 * KiB, 8 * KiB]);
      next.fill(3);
      queue.commit(8 * KiB);
      queue.end();
      const body = valueOf(await queue.read());
      expect([body.buffer, body.byteOffset, body.byteLength, pool.size]).toEqual([dest.buffer, 0, 20 * KiB, 0]);
      expect([body[0], body[5 * KiB], body[12 * KiB - 1], body[12 * KiB], body[20 * KiB - 1]]).toEqual([1, 2, 2, 3, 3]);
    });

    it("gives the pool nothing when no slab was taken yet", () => {
      const pool = new SlabPool();
      const queue = new BodyQueue(256 * KiB, { resume: () => undefined, cancel: () => undefined }, new BodySlabs(pool));
      expect(queue.receiveInto(new Uint8Array(10))).toBe(true);
      expect(pool.size).toBe(0);
    });

    it("sends bytes past the caller's buffer to slabs, never past its end", async () => {
      const { queue } = queueOf(256 * KiB);
      const dest = new Uint8Array(8);
      expect(queue.receiveInto(dest)).toBe(true);
      queue.room().set(bytes("12345678"), 0);
      queue.commit(8);
      const next = queue.room();
      expect([next.buffer === dest.buffer, next.byteOffset, next.byteLength]).toEqual([false, 0, MiB]);
      next.set(bytes("9"), 0);
      queue.commit(1);
      queue.push(bytes("0"), 0, 1);
      const first = valueOf(await queue.read());
      const rest = valueOf(await queue.read());
      expect([text(first), first.buffer, text(rest), rest.buffer]).toEqual(["12345678", dest.buffer, "90", next.buffer]);
    });

    it("refuses once a read has started, once ended or failed, and when more is queued than the buffer holds", async () => {
      const read = queueOf(256 * KiB).queue;
      read.push(bytes("abc"), 0, 3);
      await read.read();
      expect(read.receiveInto(new Uint8Array(10))).toBe(false);
      expect(read.room().length).toBe(MiB - 3);
      const ended = queueOf(256 * KiB).queue;
      ended.end();
      expect(ended.receiveInto(new Uint8Array(10))).toBe(false);
      const failed = queueOf(256 * KiB).queue;
      failed.fail(new Error("broken"));
      expect(failed.receiveInto(new Uint8Array(10))).toBe(false);
      const full = queueOf(256 * KiB).queue;
      full.push(bytes("abcdef"), 0, 6);
      const small = new Uint8Array(5).fill(7);
      expect(full.receiveInto(small)).toBe(false);
      expect([...small]).toEqual([7, 7, 7, 7, 7]);
      expect(text(valueOf(await full.read()))).toBe("abcdef");
    });
  });
});
