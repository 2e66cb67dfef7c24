import { describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { InputTooLargeError, readAll, toJSON } from "./io.js";

describe("toJSON", () => {
  it("writes a bigint as a JSON number with every digit", () => {
    expect(toJSON({ a: 9223372036854775807n, b: -5n, c: [1n] })).toBe(
      '{\n  "a": 9223372036854775807,\n  "b": -5,\n  "c": [\n    1\n  ]\n}',
    );
  });

  it("leaves strings that look like the marker alone", () => {
    expect(toJSON({ s: "bigint:1" })).toBe('{\n  "s": "bigint:1"\n}');
  });
});

describe("readAll", () => {
  it("reads a stream up to its limit", async () => {
    expect(await readAll(Readable.from([Buffer.from("ab"), "cd"]), 4)).toBe("abcd");
  });

  it("stops at the first chunk over the limit, and destroys the stream", async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push("y\n");
      },
    });
    await expect(readAll(endless, 1000)).rejects.toThrow(new InputTooLargeError(1000));
    expect(endless.destroyed).toBe(true);
    expect(pulled).toBeLessThan(600);
  });

  it("says the limit in MiB", () => {
    expect(new InputTooLargeError(32 * 1024 * 1024).message).toBe("input too large (more than 32 MiB)");
  });
});
