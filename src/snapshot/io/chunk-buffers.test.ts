import { describe, expect, it } from "vitest";
import { ChunkBuffers, detachWhole } from "./chunk-buffers.js";

describe("detachWhole", () => {
  it("frees a buffer that spans its whole ArrayBuffer", () => {
    const own = Buffer.allocUnsafeSlow(1 << 20);
    detachWhole(own);
    expect(own.buffer.byteLength).toBe(0);
    expect(own.length).toBe(0);
  });

  it("leaves slices of Node's shared pool, and views of part of a buffer, as they are", () => {
    const a = Buffer.from("hello, pool");
    const b = Buffer.from("a neighbour");
    expect(a.buffer).toBe(b.buffer); // both slices of the pool
    detachWhole(a);
    expect(a.toString()).toBe("hello, pool");
    expect(b.toString()).toBe("a neighbour");
    const whole = Buffer.allocUnsafeSlow(4096).fill(7);
    const part = whole.subarray(0, 100);
    detachWhole(part);
    expect(whole.length).toBe(4096);
    expect(whole[4095]).toBe(7);
  });
});

describe("ChunkBuffers", () => {
  it("reuses a buffer given back and frees the free ones on close", () => {
    const buffers = new ChunkBuffers(1 << 16);
    const first = buffers.take(100);
    expect(first.length).toBe(100);
    buffers.give(first);
    const again = buffers.take(200);
    expect(again.buffer).toBe(first.buffer);
    buffers.give(again);
    buffers.close();
    expect(again.buffer.byteLength).toBe(0);
  });

  it("frees a buffer given back after close instead of keeping it", () => {
    const buffers = new ChunkBuffers(1 << 16);
    const late = buffers.take(100);
    buffers.close();
    expect(late.buffer.byteLength).toBe(1 << 16);
    buffers.give(late);
    expect(late.buffer.byteLength).toBe(0);
    expect(buffers.take(10).buffer).not.toBe(late.buffer);
  });
});
