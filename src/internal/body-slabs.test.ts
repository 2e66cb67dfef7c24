import { describe, expect, it } from "vitest";
import { endsSlab, freeSlabOf, retireSlab, takeSlab } from "./body-slabs.js";

/** A slab of `size` bytes with its pieces `[0, 100)` and `[100, 300)`, retired at 300. */
function retiredSlab(size = 1024) {
  const slab = new Uint8Array(size).fill(7);
  const first = slab.subarray(0, 100);
  const last = slab.subarray(100, 300);
  retireSlab(slab, 300);
  return { slab, first, last };
}

/** A Node pooled Buffer that does not start its pool. */
function pooled(): Buffer {
  let buf = Buffer.from("xy");
  for (let i = 0; i < 3 && buf.byteOffset === 0; i++) buf = Buffer.from("xy");
  if (buf.byteOffset === 0) throw new Error("expected a pooled Buffer");
  return buf;
}

describe("endsSlab", () => {
  it("is true of the piece that ends where the retired slab's bytes end, whatever its start", () => {
    const { slab, first, last } = retiredSlab();
    expect(endsSlab(last)).toBe(true);
    expect(endsSlab(slab.subarray(0, 300))).toBe(true);
    expect(endsSlab(slab.subarray(299, 300))).toBe(true);
    expect(endsSlab(first)).toBe(false);
    expect(endsSlab(slab.subarray(100, 299))).toBe(false);
    expect(endsSlab(slab.subarray(100, 301))).toBe(false);
    expect(endsSlab(slab)).toBe(false);
  });

  it("is false of a buffer never retired, and of a piece at the same place in another buffer", () => {
    retiredSlab();
    const other = new Uint8Array(1024);
    expect(endsSlab(other.subarray(100, 300))).toBe(false);
    expect(endsSlab(other)).toBe(false);
  });

  it("ignores a slab that does not start its buffer", () => {
    const buf = pooled();
    retireSlab(buf, buf.byteOffset + buf.byteLength);
    expect(endsSlab(buf)).toBe(false);
    const backing = new Uint8Array(64);
    const offset = backing.subarray(8, 40);
    retireSlab(offset, 40);
    expect(endsSlab(backing.subarray(8, 40))).toBe(false);
    expect(endsSlab(backing.subarray(0, 40))).toBe(false);
  });

  it("ignores a slab over shared memory", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(16));
    retireSlab(shared, 16);
    expect(endsSlab(shared)).toBe(false);
  });
});

describe("freeSlabOf", () => {
  it("detaches a retired slab given its last piece: every view of it reads as empty", () => {
    const { slab, first, last } = retiredSlab();
    const buffer = slab.buffer;
    freeSlabOf(last);
    expect(buffer.byteLength).toBe(0);
    expect(slab.byteLength).toBe(0);
    expect(first.byteLength).toBe(0);
    expect(last.byteLength).toBe(0);
    expect(endsSlab(last)).toBe(false);
  });

  it("leaves a retired slab alone given any piece but its last", () => {
    const { slab, first, last } = retiredSlab();
    freeSlabOf(first);
    freeSlabOf(slab.subarray(100, 200));
    freeSlabOf(slab);
    expect(slab.buffer.byteLength).toBe(1024);
    expect(first.byteLength).toBe(100);
    expect(first.every((b) => b === 7)).toBe(true);
    expect(endsSlab(last)).toBe(true);
  });

  it("leaves a buffer never retired alone, even given its whole", () => {
    const plain = new Uint8Array(64).fill(1);
    freeSlabOf(plain);
    freeSlabOf(plain.subarray(10, 20));
    expect(plain.byteLength).toBe(64);
    expect(plain.buffer.byteLength).toBe(64);
    expect(plain.every((b) => b === 1)).toBe(true);
  });

  it("leaves a Node pooled Buffer and its pool alone", () => {
    const buf = pooled();
    const poolSize = buf.buffer.byteLength;
    freeSlabOf(buf);
    retireSlab(buf, buf.byteOffset + buf.byteLength);
    freeSlabOf(buf);
    expect(buf.toString()).toBe("xy");
    expect(buf.buffer.byteLength).toBe(poolSize);
    expect(Buffer.from("still").toString()).toBe("still");
  });

  it("is harmless a second time", () => {
    const { slab, last } = retiredSlab();
    freeSlabOf(last);
    expect(() => freeSlabOf(last)).not.toThrow();
    expect(() => freeSlabOf(slab)).not.toThrow();
    expect(slab.buffer.byteLength).toBe(0);
  });

  it("refuses to retire a slab that starts its buffer without spanning it (a slice of Node's pool): nothing is detached", () => {
    const backing = new ArrayBuffer(8192);
    const slab = new Uint8Array(backing, 0, 4095).fill(42);
    retireSlab(slab, 10);
    const last = slab.subarray(0, 10);
    expect(endsSlab(last)).toBe(false);
    freeSlabOf(last);
    expect([backing.byteLength, last.byteLength, last[9]]).toEqual([8192, 10, 42]);
  });

  it("frees a slab from Buffer.allocUnsafeSlow, as the body queue makes them", () => {
    const slab = Buffer.allocUnsafeSlow(4096);
    retireSlab(slab, 4000);
    const last = slab.subarray(1000, 4000);
    freeSlabOf(last);
    expect(slab.buffer.byteLength).toBe(0);
    expect(last.byteLength).toBe(0);
  });
});

describe("takeSlab", () => {
  it("hands back the memory of a slab given back, at its size only, and a fresh slab otherwise", () => {
    const size = 4096 + 17; // a size no other test gives back
    const fresh = takeSlab(size);
    expect(fresh.byteLength).toBe(size);
    fresh.fill(0x5a);
    retireSlab(fresh, size);
    const last = fresh.subarray(size - 10);
    freeSlabOf(last);
    expect([fresh.byteLength, last.byteLength]).toEqual([0, 0]); // the old views are empty
    expect(takeSlab(size + 1).byteLength).toBe(size + 1); // another size: fresh, and the slab stays in the pool
    const again = takeSlab(size);
    expect(again.byteLength).toBe(size);
    expect(again.every((b) => b === 0x5a)).toBe(true); // the same bytes, not a new allocation
  });
});
