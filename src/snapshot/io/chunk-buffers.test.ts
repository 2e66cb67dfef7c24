import { afterEach, describe, expect, it, vi } from "vitest";
import { ChunkBuffers, detachWhole, freeSpareBuffers, SPARE_IDLE_MS } from "./chunk-buffers.js";

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
  afterEach(() => {
    freeSpareBuffers();
    vi.useRealTimers();
  });

  it("reuses a buffer given back, and on close leaves the free ones to the next set of its size", () => {
    const buffers = new ChunkBuffers(1 << 16);
    const first = buffers.take(100);
    expect(first.length).toBe(100);
    buffers.give(first);
    const again = buffers.take(200);
    expect(again.buffer).toBe(first.buffer);
    buffers.give(again);
    buffers.close();
    expect(again.buffer.byteLength).toBe(1 << 16);
    expect(new ChunkBuffers(1 << 15).take(10).buffer).not.toBe(first.buffer);
    const next = new ChunkBuffers(1 << 16).take(10);
    expect(next.buffer).toBe(first.buffer);
    expect(next.length).toBe(10);
  });

  it("leaves a buffer given back after close to the next set too, and frees it on freeSpareBuffers", () => {
    const buffers = new ChunkBuffers(1 << 16);
    const late = buffers.take(100);
    buffers.close();
    buffers.give(late);
    expect(late.buffer.byteLength).toBe(1 << 16);
    freeSpareBuffers();
    expect(late.buffer.byteLength).toBe(0);
    expect(new ChunkBuffers(1 << 16).take(10).buffer.byteLength).toBe(1 << 16);
  });

  it("frees the spare buffers SPARE_IDLE_MS after the last one was taken or added", () => {
    vi.useFakeTimers();
    const a = new ChunkBuffers(1 << 16);
    const [one, two] = [a.take(1), a.take(1)];
    a.give(one);
    a.give(two);
    a.close();
    vi.advanceTimersByTime(SPARE_IDLE_MS - 1);
    const b = new ChunkBuffers(1 << 16);
    expect(b.take(1).buffer).toBe(two.buffer);
    vi.advanceTimersByTime(SPARE_IDLE_MS - 1);
    expect(one.buffer.byteLength).toBe(1 << 16);
    vi.advanceTimersByTime(1);
    expect(one.buffer.byteLength).toBe(0);
    expect(two.buffer.byteLength).toBe(1 << 16); // taken, not spare
  });
});
