import { describe, expect, it } from "vitest";
import { catching } from "./catching.js";

describe("catching", () => {
  it("passes the pieces as they come and throws what onError makes of a failure", async () => {
    async function* source(): AsyncGenerator<string> {
      yield "a";
      yield "b";
      throw new Error("disk gone");
    }
    const got: string[] = [];
    const err = await (async () => {
      for await (const piece of catching(source(), (e) => new RangeError(`read: ${(e as Error).message}`))) got.push(piece);
    })().catch((e: unknown) => e);
    expect(got).toEqual(["a", "b"]);
    expect(err).toBeInstanceOf(RangeError);
    expect((err as Error).message).toBe("read: disk gone");
  });

  it("stops its source when the consumer stops", async () => {
    let stopped = false;
    async function* source(): AsyncGenerator<number> {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        stopped = true;
      }
    }
    const it = catching(source(), (e) => e);
    expect(await it.next()).toEqual({ done: false, value: 0 });
    expect(await it.return?.()).toEqual({ done: true, value: undefined });
    expect(stopped).toBe(true);
  });
});
