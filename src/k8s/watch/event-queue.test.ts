import { describe, expect, it } from "vitest";
import { EventQueue } from "./event-queue.js";

describe("EventQueue", () => {
  it("hands items over in order, kept or awaited", async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    const waiting = [queue.next(), queue.next()];
    expect(await Promise.all(waiting)).toEqual([
      { done: false, value: 1 },
      { done: false, value: 2 },
    ]);
    const pending = queue.next();
    queue.push(3);
    expect(await pending).toEqual({ done: false, value: 3 });
  });

  it("keeps a backlog of thousands, in order", async () => {
    const queue = new EventQueue<number>();
    for (let i = 0; i < 5000; i++) queue.push(i);
    const seen: number[] = [];
    for (let i = 0; i < 5000; i++) seen.push((await queue.next()).value ?? -1);
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it("ends at once: a waiting next() resolves done, kept items and later pushes are dropped", async () => {
    const queue = new EventQueue<string>();
    const waiting = queue.next();
    queue.end();
    expect(await waiting).toEqual({ done: true, value: undefined });
    const other = new EventQueue<string>();
    other.push("kept");
    other.end();
    other.push("late");
    expect(await other.next()).toEqual({ done: true, value: undefined });
  });

  it("fails the next next() with the error, then is done", async () => {
    const queue = new EventQueue<string>();
    const boom = new Error("boom");
    queue.fail(boom);
    await expect(queue.next()).rejects.toBe(boom);
    expect(await queue.next()).toEqual({ done: true, value: undefined });
    const waiting = new EventQueue<string>();
    const pending = waiting.next();
    waiting.fail(boom);
    await expect(pending).rejects.toBe(boom);
  });
});
