import { beforeEach, describe, expect, it } from "vitest";
import { BodySlabs, SlabPool } from "./body-slabs.js";

/** The slabs of one body, over a pool of their own. */
let slabs: BodySlabs;
beforeEach(() => {
  slabs = new BodySlabs(new SlabPool());
});

/** A slab of `size` bytes with its pieces `[0, 100)` and `[100, 300)`, retired at 300 by `body`. */
function retiredSlab(size = 1024, body = slabs) {
  const slab = new Uint8Array(size).fill(7);
  const first = slab.subarray(0, 100);
  const last = slab.subarray(100, 300);
  body.retire(slab, 300);
  return { slab, first, last };
}

/** A Node pooled Buffer that does not start its pool. */
function pooled(): Buffer {
  let buf = Buffer.from("xy");
  for (let i = 0; i < 3 && buf.byteOffset === 0; i++) buf = Buffer.from("xy");
  if (buf.byteOffset === 0) throw new Error("expected a pooled Buffer");
  return buf;
}

describe("BodySlabs.endsSlab", () => {
  it("is true of the piece that ends where the retired slab's bytes end, whatever its start", () => {
    const { slab, first, last } = retiredSlab();
    expect(slabs.endsSlab(last)).toBe(true);
    expect(slabs.endsSlab(slab.subarray(0, 300))).toBe(true);
    expect(slabs.endsSlab(slab.subarray(299, 300))).toBe(true);
    expect(slabs.endsSlab(first)).toBe(false);
    expect(slabs.endsSlab(slab.subarray(100, 299))).toBe(false);
    expect(slabs.endsSlab(slab.subarray(100, 301))).toBe(false);
    expect(slabs.endsSlab(slab)).toBe(false);
  });

  it("is false of a buffer never retired, and of a piece at the same place in another buffer", () => {
    retiredSlab();
    const other = new Uint8Array(1024);
    expect(slabs.endsSlab(other.subarray(100, 300))).toBe(false);
    expect(slabs.endsSlab(other)).toBe(false);
  });

  it("ignores a slab that does not start its buffer", () => {
    const buf = pooled();
    slabs.retire(buf, buf.byteOffset + buf.byteLength);
    expect(slabs.endsSlab(buf)).toBe(false);
    const backing = new Uint8Array(64);
    const offset = backing.subarray(8, 40);
    slabs.retire(offset, 40);
    expect(slabs.endsSlab(backing.subarray(8, 40))).toBe(false);
    expect(slabs.endsSlab(backing.subarray(0, 40))).toBe(false);
  });

  it("ignores a slab over shared memory", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(16));
    slabs.retire(shared, 16);
    expect(slabs.endsSlab(shared)).toBe(false);
  });
});

describe("BodySlabs.free", () => {
  it("detaches a retired slab given its last piece: every view of it reads as empty", () => {
    const { slab, first, last } = retiredSlab();
    const buffer = slab.buffer;
    slabs.free(last);
    expect(buffer.byteLength).toBe(0);
    expect(slab.byteLength).toBe(0);
    expect(first.byteLength).toBe(0);
    expect(last.byteLength).toBe(0);
    expect(slabs.endsSlab(last)).toBe(false);
  });

  it("leaves a retired slab alone given any piece but its last", () => {
    const { slab, first, last } = retiredSlab();
    slabs.free(first);
    slabs.free(slab.subarray(100, 200));
    slabs.free(slab);
    expect(slab.buffer.byteLength).toBe(1024);
    expect(first.byteLength).toBe(100);
    expect(first.every((b) => b === 7)).toBe(true);
    expect(slabs.endsSlab(last)).toBe(true);
  });

  it("leaves a buffer never retired alone, even given its whole", () => {
    const plain = new Uint8Array(64).fill(1);
    slabs.free(plain);
    slabs.free(plain.subarray(10, 20));
    expect(plain.byteLength).toBe(64);
    expect(plain.buffer.byteLength).toBe(64);
    expect(plain.every((b) => b === 1)).toBe(true);
  });

  it("leaves a Node pooled Buffer and its pool alone", () => {
    const buf = pooled();
    const poolSize = buf.buffer.byteLength;
    slabs.free(buf);
    slabs.retire(buf, buf.byteOffset + buf.byteLength);
    slabs.free(buf);
    expect(buf.toString()).toBe("xy");
    expect(buf.buffer.byteLength).toBe(poolSize);
    expect(Buffer.from("still").toString()).toBe("still");
  });

  it("is harmless a second time", () => {
    const { slab, last } = retiredSlab();
    slabs.free(last);
    expect(() => slabs.free(last)).not.toThrow();
    expect(() => slabs.free(slab)).not.toThrow();
    expect(slab.buffer.byteLength).toBe(0);
  });

  it("refuses to retire a slab that starts its buffer without spanning it (a slice of Node's pool): nothing is detached", () => {
    const backing = new ArrayBuffer(8192);
    const slab = new Uint8Array(backing, 0, 4095).fill(42);
    slabs.retire(slab, 10);
    const last = slab.subarray(0, 10);
    expect(slabs.endsSlab(last)).toBe(false);
    slabs.free(last);
    expect([backing.byteLength, last.byteLength, last[9]]).toEqual([8192, 10, 42]);
  });

  it("frees a slab from Buffer.allocUnsafeSlow, as the body queue makes them", () => {
    const slab = Buffer.allocUnsafeSlow(4096);
    slabs.retire(slab, 4000);
    const last = slab.subarray(1000, 4000);
    slabs.free(last);
    expect(slab.buffer.byteLength).toBe(0);
    expect(last.byteLength).toBe(0);
  });
});

describe("BodySlabs.take", () => {
  it("hands back the memory of a slab given back, at its size only, and a fresh slab otherwise", () => {
    const size = 4096 + 17; // a size no other test gives back
    const fresh = slabs.take(size);
    expect(fresh.byteLength).toBe(size);
    fresh.fill(0x5a);
    slabs.retire(fresh, size);
    const last = fresh.subarray(size - 10);
    slabs.free(last);
    expect([fresh.byteLength, last.byteLength]).toEqual([0, 0]); // the old views are empty
    expect(slabs.take(size + 1).byteLength).toBe(size + 1); // another size: fresh, and the slab stays in the pool
    const again = slabs.take(size);
    expect(again.byteLength).toBe(size);
    expect(again.every((b) => b === 0x5a)).toBe(true); // the same bytes, not a new allocation
  });
});

describe("slabs belong to their body and their pool", () => {
  it("never frees a slab of another body, even one of the same pool", () => {
    const pool = new SlabPool();
    const a = new BodySlabs(pool);
    const b = new BodySlabs(pool);
    const ofB = retiredSlab(1024, b);
    expect(a.endsSlab(ofB.last)).toBe(false);
    a.free(ofB.last);
    expect([ofB.slab.buffer.byteLength, ofB.last.byteLength, pool.size]).toEqual([1024, 200, 0]);
    expect(Buffer.from(ofB.slab.subarray(0, 300)).equals(Buffer.alloc(300, 7))).toBe(true);
    b.free(ofB.last);
    expect([ofB.slab.buffer.byteLength, ofB.last.byteLength, pool.size]).toEqual([0, 0, 1]);
  });

  it("hands a slab given back to one pool only to the bodies of that pool", () => {
    const size = 2048 + 3;
    const mine = new SlabPool();
    const theirs = new SlabPool();
    const body = new BodySlabs(mine);
    const slab = body.take(size).fill(0x33);
    body.retire(slab, size);
    body.free(slab.subarray(size - 1));
    expect([mine.size, theirs.size]).toEqual([1, 0]);
    const fresh = new BodySlabs(theirs).take(size).fill(0x44);
    expect([fresh.byteLength, fresh[0], mine.size]).toEqual([size, 0x44, 1]); // not the slab given back to `mine`
    const reused = new BodySlabs(mine).take(size);
    expect([reused.byteLength, reused[0], reused[size - 1], mine.size]).toEqual([size, 0x33, 0x33, 0]);
  });

  it("keeps at most 16 slabs per pool; past that a slab given back is freed", () => {
    const pool = new SlabPool();
    const body = new BodySlabs(pool);
    const given = Array.from({ length: 17 }, () => body.take(64));
    for (const slab of given) {
      body.retire(slab, 64);
      body.free(slab);
    }
    expect(pool.size).toBe(16);
    expect(given.map((slab) => slab.byteLength)).toEqual(Array.from({ length: 17 }, () => 0));
  });
});
