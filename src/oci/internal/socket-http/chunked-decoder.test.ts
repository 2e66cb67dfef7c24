import { describe, expect, it } from "vitest";
import { ChunkedDecoder } from "./chunked-decoder.js";
import { expectProtocolError } from "./protocol-error.test-util.js";

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));
const text = (parts: readonly Uint8Array[]): string => Buffer.concat(parts).toString("latin1");

/** One call of `emit`: the buffer it was given (by identity) and the range. */
interface Emitted {
  readonly buf: Uint8Array;
  readonly from: number;
  readonly to: number;
}

/** A decoder with what it emitted, copied out as it came and recorded as the range it was given. */
function decoder() {
  const d = new ChunkedDecoder();
  const emitted: Emitted[] = [];
  const copies: Uint8Array[] = [];
  const feed = (buf: Uint8Array, from = 0, to = buf.length) =>
    d.feed(buf, from, to, (b, f, t) => {
      emitted.push({ buf: b, from: f, to: t });
      copies.push(b.slice(f, t));
    });
  return { d, emitted, feed, body: () => text(copies) };
}

/** Asserts that feeding `input` whole to a fresh decoder throws a ProtocolError with exactly `message`. */
function expectRejected(input: string | Uint8Array, message: string): void {
  const buf = typeof input === "string" ? bytes(input) : input;
  expectProtocolError(() => decoder().feed(buf), message);
}

// Data holding CR, LF and CRLF, an upper-case size, leading zeros, extensions of every shape, two trailers.
const BODY =
  "4\r\nWiki\r\n" +
  "5;name=value;flag\r\npedia\r\n" +
  '00E \t; q="a b"\r\n in\r\n\r\nchunks.\r\n' +
  "a\r\n\n\r\r\n\x00\xff\x80xyz\r\n" +
  "0;last\r\n" +
  "Expires: never\r\n" +
  "X-Checksum:\tabc \r\n" +
  "\r\n";
const DECODED = "Wikipedia in\r\n\r\nchunks.\n\r\r\n\x00\xff\x80xyz";
const AFTER = "HTTP/1.1 200 OK\r\n\r\n";

describe("ChunkedDecoder", () => {
  it("decodes a body fed whole, returning where it ended and leaving what follows", () => {
    const { d, feed, body } = decoder();
    const buf = bytes(BODY + AFTER);
    expect(d.done).toBe(false);
    expect(feed(buf)).toBe(BODY.length);
    expect(d.done).toBe(true);
    expect(body()).toBe(DECODED);
  });

  it("hands out ranges of the very buffer it was given, without copying", () => {
    const { feed, emitted } = decoder();
    const buf = bytes("4\r\nWiki\r\n5;e=1\r\npedia\r\n0\r\n\r\n");
    expect(feed(buf)).toBe(28);
    expect(emitted).toHaveLength(2);
    expect(emitted[0]?.buf).toBe(buf);
    expect(emitted[1]?.buf).toBe(buf);
    expect(emitted.map(({ from, to }) => [from, to])).toEqual([
      [3, 7],
      [16, 21],
    ]);
  });

  it("reads a buffer that is a view into a larger one at an offset, and only its [from, to) range", () => {
    const backing = bytes(`JUNK\n\r\n${"X".repeat(5)}3\r\nabc\r\n0\r\n\r\nTAIL\n`);
    const view = backing.subarray(7);
    const { d, feed, emitted, body } = decoder();
    // Stops short of the last LF: `to` is respected even though an LF follows it in the buffer.
    expect(feed(view, 5, 5 + 12)).toBe(17);
    expect(d.done).toBe(false);
    expect(feed(view, 17, view.length)).toBe(18);
    expect(d.done).toBe(true);
    expect(body()).toBe("abc");
    expect(emitted).toEqual([{ buf: view, from: 8, to: 11 }]);
  });

  it("gives the same bytes and end whatever byte the input is split at", () => {
    const buf = bytes(BODY + AFTER);
    for (let k = 0; k <= buf.length; k++) {
      const { d, feed, body, emitted } = decoder();
      const first = feed(buf, 0, k);
      expect(first).toBe(Math.min(k, BODY.length));
      expect(d.done).toBe(k >= BODY.length);
      const second = feed(buf, k, buf.length);
      expect(second).toBe(Math.max(k, BODY.length));
      expect(d.done).toBe(true);
      expect(body()).toBe(DECODED);
      for (const e of emitted) expect(e.buf).toBe(buf);
    }
  });

  it("gives the same bytes and end fed one byte at a time, in separate buffers", () => {
    const input = bytes(BODY + AFTER);
    const { d, feed, body } = decoder();
    const returned: number[] = [];
    for (let i = 0; i < input.length; i++) returned.push(feed(input.slice(i, i + 1)));
    expect(body()).toBe(DECODED);
    expect(d.done).toBe(true);
    // Each byte of the body is consumed; the bytes after it are not.
    expect(returned).toEqual([...Array<number>(BODY.length).fill(1), ...Array<number>(AFTER.length).fill(0)]);
  });

  it("takes nothing once done", () => {
    const { d, feed, emitted } = decoder();
    expect(feed(bytes("0\r\n\r\n"))).toBe(5);
    expect(d.done).toBe(true);
    const buf = bytes("3\r\nabc\r\n");
    expect(feed(buf, 2, buf.length)).toBe(2);
    expect(emitted).toEqual([]);
    expect(d.done).toBe(true);
  });

  it("reads an empty body, with or without a last-chunk extension", () => {
    for (const input of ["0\r\n\r\n", "0;x=y\r\n\r\n", "000\r\n\r\n"]) {
      const { d, feed, emitted } = decoder();
      expect(feed(bytes(input))).toBe(input.length);
      expect(d.done).toBe(true);
      expect(emitted).toEqual([]);
    }
  });

  it("is not done before the empty line that ends the trailers", () => {
    const { d, feed } = decoder();
    expect(feed(bytes("1\r\na\r\n0\r\nA: b\r\n"))).toBe(15);
    expect(d.done).toBe(false);
    expect(feed(bytes("\r"))).toBe(1);
    expect(d.done).toBe(false);
    expect(feed(bytes("\n"))).toBe(1);
    expect(d.done).toBe(true);
  });

  it("accepts sizes in either case and up to 13 hexadecimal digits", () => {
    const { d, feed, body } = decoder();
    feed(bytes("a\r\n0123456789\r\nB\r\nabcdefghijk\r\n"));
    expect(body()).toBe("0123456789abcdefghijk");
    const big = decoder();
    expect(big.feed(bytes("fffffffffffff\r\nxyz"))).toBe(18);
    expect(big.body()).toBe("xyz");
    expect(big.d.done).toBe(false);
    expect(d.done).toBe(false);
  });

  it.each([
    ["g\r\n", `malformed chunk size "g"`],
    ["\r\n", `malformed chunk size ""`],
    ["-1\r\n", `malformed chunk size "-1"`],
    ["+1\r\n", `malformed chunk size "+1"`],
    ["0x5\r\n", `malformed chunk size "0x5"`],
    [" 5\r\n", `malformed chunk size " 5"`],
    ["5 \r\n", `malformed chunk size "5 "`],
    [";x\r\n", `malformed chunk size ";x"`],
    ["5;a\x00\r\n", `malformed chunk size "5;a\\u0000"`],
    ["5;a\r\r\n", `malformed chunk size "5;a\\r"`],
    ["5;\xe9\r\n", `malformed chunk size "5;\xe9"`],
    ["10000000000000\r\n", `malformed chunk size "10000000000000"`],
    ["00000000000001\r\n", `malformed chunk size "00000000000001"`],
    [`1;${"x".repeat(60)}\r\n`.replace("x", "\x01"), `malformed chunk size "1;\\u0001${"x".repeat(37)}"`],
  ])("rejects the size line %j", (input, message) => {
    expectRejected(input, message);
  });

  it("accepts a size line of 1024 bytes with its CRLF, and refuses one byte more", () => {
    const okLine = `1;${"e".repeat(1020)}\r\n`;
    expect(okLine).toHaveLength(1024);
    const { feed, body } = decoder();
    expect(feed(bytes(`${okLine}z\r\n0\r\n\r\n`))).toBe(1024 + 8);
    expect(body()).toBe("z");
    expectRejected(`1;${"e".repeat(1021)}\r\n`, "chunk size line too long");
  });

  it("refuses a size line past 1024 bytes before its LF arrives, across feeds", () => {
    const { feed } = decoder();
    expect(feed(bytes(`1;${"e".repeat(1022)}`))).toBe(1024);
    expectProtocolError(() => feed(bytes("e")), "chunk size line too long");
    expectRejected("f".repeat(2000), "chunk size line too long");
  });

  it("rejects chunk data longer than its size", () => {
    expectRejected("3\r\nabcd\r\n0\r\n\r\n", "chunk data longer than its size");
    expectRejected("3\r\nabc \r\n0\r\n\r\n", "chunk data longer than its size");
    expectRejected("3\r\nabc0\r\n\r\n", "chunk data longer than its size");
  });

  it("emits the data a chunk's size promised before finding it is too long", () => {
    const { feed, body } = decoder();
    expectProtocolError(() => feed(bytes("3\r\nabcd\r\n")), "chunk data longer than its size");
    expect(body()).toBe("abc");
  });

  it.each([
    ["3\nabc\r\n0\r\n\r\n"],
    ["3\r\nabc\n0\r\n\r\n"],
    ["3\r\nabc\r\n0\n\r\n"],
    ["3\r\nabc\r\n0\r\n\n"],
    ["3\r\nabc\r\n0\r\nA: b\n\r\n"],
  ])("rejects a line ended by LF alone in %j", (input) => {
    expectRejected(input, "chunked body line not ended by CRLF");
  });

  it.each([
    ["0\r\nbad trailer\r\n\r\n"],
    ["0\r\n folded: x\r\n\r\n"],
    ["0\r\n\tfolded\r\n\r\n"],
    ["0\r\nA : b\r\n\r\n"],
    ["0\r\n: b\r\n\r\n"],
    ["0\r\nA: b\x00\r\n\r\n"],
    ["0\r\nA: b\x7f\r\n\r\n"],
    ["0\r\nA: b\rc\r\n\r\n"],
    ["0\r\nA: b\r\r\n\r\n"],
  ])("rejects the malformed trailer in %j", (input) => {
    expectRejected(input, "malformed chunked trailer");
  });

  it("accepts trailers of 16 KiB counting the final CRLF, and refuses one byte more", () => {
    const line = (n: number) => `X-Pad: ${"p".repeat(n - 9)}\r\n`;
    const ok = decoder();
    const okInput = `0\r\n${line(8000)}${line(8382)}\r\n`;
    expect(ok.feed(bytes(`${okInput}NEXT`))).toBe(okInput.length);
    expect(ok.d.done).toBe(true);
    expectRejected(`0\r\n${line(8000)}${line(8383)}\r\n`, "chunked trailers too long");
    expectRejected(`0\r\n${line(16384)}\r\n`, "chunked trailers too long");
  });

  it("refuses trailers past 16 KiB before their LF arrives", () => {
    const { feed } = decoder();
    expect(feed(bytes(`0\r\nX: ${"v".repeat(16381)}`))).toBe(3 + 16384);
    expectProtocolError(() => feed(bytes("v")), "chunked trailers too long");
  });
});
