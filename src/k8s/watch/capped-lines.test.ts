import { describe, expect, it } from "vitest";
import { CappedLines } from "./capped-lines.js";

const split = (lines: CappedLines, chunks: string[]) => {
  const seen: string[] = [];
  const outcomes = chunks.map((chunk) => lines.push(Buffer.from(chunk), (bytes) => (seen.push(bytes.toString()), true)));
  return { seen, outcomes, pending: lines.pendingBytes };
};

describe("CappedLines", () => {
  it("joins a line across chunks and keeps the unfinished rest", () => {
    expect(split(new CappedLines(10), ["ab", "c\nde\n", "f"])).toEqual({
      seen: ["abc", "de"],
      outcomes: ["more", "more", "more"],
      pending: 1,
    });
  });

  it("takes a line of exactly the cap and refuses one byte more, ended or not", () => {
    expect(split(new CappedLines(4), ["abcd\n"]).outcomes).toEqual(["more"]);
    expect(split(new CappedLines(4), ["abcde\n"]).outcomes).toEqual(["too-long"]);
    expect(split(new CappedLines(4), ["abc", "de"])).toEqual({ seen: [], outcomes: ["more", "too-long"], pending: 0 });
  });

  it("stops when the line handler says so", () => {
    const lines = new CappedLines(10);
    const seen: string[] = [];
    expect(lines.push(Buffer.from("a\nb\nc\n"), (bytes) => (seen.push(bytes.toString()), seen.length < 2))).toBe("stopped");
    expect(seen).toEqual(["a", "b"]);
  });
});
