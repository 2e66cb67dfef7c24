import { describe, expect, it } from "vitest";
import { bodyFraming, MAX_HEAD_BYTES, parseResponseHead, type ResponseHead } from "./response-head.js";
import { expectProtocolError } from "./protocol-error.test-util.js";

/** A head of status 200 with `fields`. */
function headOf(fields: readonly (readonly [string, string])[], status = 200): ResponseHead {
  return { status, reason: "OK", fields };
}

describe("MAX_HEAD_BYTES", () => {
  it("is 64 KiB", () => {
    expect(MAX_HEAD_BYTES).toBe(65536);
  });
});

describe("parseResponseHead", () => {
  it("parses status, reason, lower-cased names and trimmed values, in order, keeping repeated fields", () => {
    const head = parseResponseHead(
      [
        "HTTP/1.1 200 OK",
        "Content-Type: application/json",
        "X-Empty:",
        "Set-Cookie:  a=1 \t",
        "DOCKER-Content-Digest:\tsha256:abc",
        "set-cookie: b=2",
        "X-Inner:  a  b  ",
      ].join("\r\n"),
    );
    expect(head).toEqual({
      status: 200,
      reason: "OK",
      fields: [
        ["content-type", "application/json"],
        ["x-empty", ""],
        ["set-cookie", "a=1"],
        ["docker-content-digest", "sha256:abc"],
        ["set-cookie", "b=2"],
        ["x-inner", "a  b"],
      ],
    });
  });

  it("keeps a reason phrase with spaces, tabs and obs-text as it came", () => {
    expect(parseResponseHead("HTTP/1.1 404 Not \tFound \xe9")).toEqual({ status: 404, reason: "Not \tFound \xe9", fields: [] });
  });

  it("gives an empty reason when the status line ends after the code, with or without the space", () => {
    expect(parseResponseHead("HTTP/1.1 204")).toEqual({ status: 204, reason: "", fields: [] });
    expect(parseResponseHead("HTTP/1.1 204 ")).toEqual({ status: 204, reason: "", fields: [] });
  });

  it("accepts HTTP/1.0 and the whole 100-999 range of three-digit codes", () => {
    expect(parseResponseHead("HTTP/1.0 301 Moved\r\nLocation: /x")).toEqual({ status: 301, reason: "Moved", fields: [["location", "/x"]] });
    expect(parseResponseHead("HTTP/1.1 100 Continue").status).toBe(100);
    expect(parseResponseHead("HTTP/1.1 999 X").status).toBe(999);
  });

  it("accepts a field name made of every token character", () => {
    expect(parseResponseHead("HTTP/1.1 200 OK\r\n!#$%&'*+-.^_`|~09AZaz: v").fields).toEqual([["!#$%&'*+-.^_`|~09azaz", "v"]]);
  });

  it.each([
    ["HTTP/2 200 OK", `malformed status line "HTTP/2 200 OK"`],
    ["HTTP/2.0 200 OK", `malformed status line "HTTP/2.0 200 OK"`],
    ["HTTP/1.2 200 OK", `malformed status line "HTTP/1.2 200 OK"`],
    ["http/1.1 200 OK", `malformed status line "http/1.1 200 OK"`],
    ["HTTP/1.1 099 Low", `malformed status line "HTTP/1.1 099 Low"`],
    ["HTTP/1.1 1000 High", `malformed status line "HTTP/1.1 1000 High"`],
    ["HTTP/1.1 1000", `malformed status line "HTTP/1.1 1000"`],
    ["HTTP/1.1 20x OK", `malformed status line "HTTP/1.1 20x OK"`],
    ["HTTP/1.1 20 OK", `malformed status line "HTTP/1.1 20 OK"`],
    ["HTTP/1.1  200 OK", `malformed status line "HTTP/1.1  200 OK"`],
    ["HTTP/1.1\t200 OK", `malformed status line "HTTP/1.1\\t200 OK"`],
    [" HTTP/1.1 200 OK", `malformed status line " HTTP/1.1 200 OK"`],
    ["HTTP/1.1 200 O\x00K", `malformed status line "HTTP/1.1 200 O\\u0000K"`],
    ["HTTP/1.1 200 O\x7fK", `malformed status line "HTTP/1.1 200 O\x7fK"`],
    ["HTTP/1.1 200 OK\nServer: x", `malformed status line "HTTP/1.1 200 OK\\nServer: x"`],
    ["HTTP/1.1 200 OK\r", `malformed status line "HTTP/1.1 200 OK\\r"`],
    ["", `malformed status line ""`],
  ])("rejects the status line %j", (text, message) => {
    expectProtocolError(() => parseResponseHead(text), message);
  });

  it.each([
    ["a: b\nc: d", `malformed header line "a: b\\nc: d"`],
    ["a: b\rc: d", `malformed header line "a: b\\rc: d"`],
    [" folded", `malformed header line " folded"`],
    ["\tfolded", `malformed header line "\\tfolded"`],
    ["a: b\x00c", `malformed header line "a: b\\u0000c"`],
    ["a: b\x7fc", `malformed header line "a: b\x7fc"`],
    ["a: b\x01", `malformed header line "a: b\\u0001"`],
    ["name : v", `malformed header line "name : v"`],
    ["na me: v", `malformed header line "na me: v"`],
    ["na\tme: v", `malformed header line "na\\tme: v"`],
    ["name v", `malformed header line "name v"`],
    [": v", `malformed header line ": v"`],
    ["na(me): v", `malformed header line "na(me): v"`],
    ["n\xe9: v", `malformed header line "n\xe9: v"`],
    ["", `malformed header line ""`],
  ])("rejects the header line %j", (line, message) => {
    expectProtocolError(() => parseResponseHead(`HTTP/1.1 200 OK\r\nServer: x\r\n${line}`), message);
  });

  it("rejects a folded continuation of the first field", () => {
    expectProtocolError(() => parseResponseHead("HTTP/1.1 200 OK\r\nX-A: one\r\n two"), `malformed header line " two"`);
  });

  it("rejects a head that still ends in CRLF (the empty line is not part of it)", () => {
    expectProtocolError(() => parseResponseHead("HTTP/1.1 200 OK\r\nServer: x\r\n"), `malformed header line ""`);
  });

  it("clips a long offending line to 80 characters in the message", () => {
    const long = `X-Long: ${"a".repeat(100)}\x00`;
    expectProtocolError(() => parseResponseHead(`HTTP/1.1 200 OK\r\n${long}`), `malformed header line "${long.slice(0, 80)}…"`);
    const status = `HTTP/1.1 200 ${"r".repeat(100)}\x00`;
    expectProtocolError(() => parseResponseHead(status), `malformed status line "${status.slice(0, 80)}…"`);
  });

  it("keeps a line of exactly 80 characters whole in the message, and clips one of 81", () => {
    const line80 = `X: ${"b".repeat(76)}\x00`;
    expect(line80).toHaveLength(80);
    expectProtocolError(() => parseResponseHead(`HTTP/1.1 200 OK\r\n${line80}`), `malformed header line "X: ${"b".repeat(76)}\\u0000"`);
    expectProtocolError(
      () => parseResponseHead(`HTTP/1.1 200 OK\r\nX: ${"b".repeat(77)}\x00`),
      `malformed header line "X: ${"b".repeat(77)}…"`,
    );
  });
});

describe("bodyFraming", () => {
  const lengthOf = (...fields: [string, string][]) => bodyFraming("GET", headOf(fields));

  it("gives no body for HEAD, whatever the fields say", () => {
    expect(bodyFraming("HEAD", headOf([["content-length", "10"]]))).toEqual({ kind: "none" });
    expect(bodyFraming("HEAD", headOf([["transfer-encoding", "chunked"]]))).toEqual({ kind: "none" });
    expect(bodyFraming("HEAD", headOf([]))).toEqual({ kind: "none" });
  });

  it.each([100, 101, 103, 199, 204, 304])("gives no body for status %i, even with framing fields", (status) => {
    expect(bodyFraming("GET", headOf([["content-length", "10"]], status))).toEqual({ kind: "none" });
    expect(bodyFraming("GET", headOf([["transfer-encoding", "gzip"]], status))).toEqual({ kind: "none" });
  });

  it.each([200, 205, 206, 301, 404, 500])("reads a body for status %i", (status) => {
    expect(bodyFraming("GET", headOf([["content-length", "3"]], status))).toEqual({ kind: "length", length: 3 });
  });

  it("reads chunked when it is the only transfer coding, in any case and with blanks", () => {
    expect(lengthOf(["transfer-encoding", "chunked"])).toEqual({ kind: "chunked" });
    expect(lengthOf(["transfer-encoding", "CHUNKED"])).toEqual({ kind: "chunked" });
    expect(lengthOf(["transfer-encoding", "Chunked"])).toEqual({ kind: "chunked" });
    expect(lengthOf(["transfer-encoding", " chunked "])).toEqual({ kind: "chunked" });
  });

  it.each([
    [[["transfer-encoding", "gzip, chunked"]], `unsupported Transfer-Encoding "gzip, chunked"`],
    [[["transfer-encoding", "chunked, chunked"]], `unsupported Transfer-Encoding "chunked, chunked"`],
    [
      [
        ["transfer-encoding", "gzip"],
        ["transfer-encoding", "chunked"],
      ],
      `unsupported Transfer-Encoding "gzip, chunked"`,
    ],
    [
      [
        ["transfer-encoding", "chunked"],
        ["transfer-encoding", "chunked"],
      ],
      `unsupported Transfer-Encoding "chunked, chunked"`,
    ],
    [[["transfer-encoding", "gzip"]], `unsupported Transfer-Encoding "gzip"`],
    [[["transfer-encoding", "identity"]], `unsupported Transfer-Encoding "identity"`],
    [[["transfer-encoding", "chunked,"]], `unsupported Transfer-Encoding "chunked, "`],
    [[["transfer-encoding", ""]], `unsupported Transfer-Encoding ""`],
    [[["transfer-encoding", "xchunked"]], `unsupported Transfer-Encoding "xchunked"`],
  ] as [[string, string][], string][])("rejects the transfer codings %j", (fields, message) => {
    expectProtocolError(() => lengthOf(...fields), message);
  });

  it("rejects both Transfer-Encoding and Content-Length, in either order, even when they agree on nothing else", () => {
    const message = "both Transfer-Encoding and Content-Length";
    expectProtocolError(() => lengthOf(["transfer-encoding", "chunked"], ["content-length", "5"]), message);
    expectProtocolError(() => lengthOf(["content-length", "5"], ["transfer-encoding", "chunked"]), message);
    expectProtocolError(() => lengthOf(["content-length", "0"], ["transfer-encoding", "gzip"]), message);
  });

  it("reads a Content-Length that every value agrees on", () => {
    expect(lengthOf(["content-length", "5"])).toEqual({ kind: "length", length: 5 });
    expect(lengthOf(["content-length", "5, 5"])).toEqual({ kind: "length", length: 5 });
    expect(lengthOf(["content-length", "5,5"])).toEqual({ kind: "length", length: 5 });
    expect(lengthOf(["content-length", "5"], ["content-length", "5"])).toEqual({ kind: "length", length: 5 });
    expect(lengthOf(["content-length", "0"])).toEqual({ kind: "length", length: 0 });
    expect(lengthOf(["content-length", "007"])).toEqual({ kind: "length", length: 7 });
    expect(lengthOf(["content-length", "999999999999999"])).toEqual({ kind: "length", length: 999999999999999 });
  });

  it("ignores other fields when choosing the framing", () => {
    expect(lengthOf(["content-type", "text/plain"], ["content-length", "12"], ["x-length", "3"])).toEqual({ kind: "length", length: 12 });
  });

  it.each([
    [[["content-length", "5, 6"]], `invalid Content-Length "5, 6"`],
    [
      [
        ["content-length", "5"],
        ["content-length", "6"],
      ],
      `invalid Content-Length "5, 6"`,
    ],
    [[["content-length", "-1"]], `invalid Content-Length "-1"`],
    [[["content-length", "+1"]], `invalid Content-Length "+1"`],
    [[["content-length", "0x10"]], `invalid Content-Length "0x10"`],
    [[["content-length", "1e3"]], `invalid Content-Length "1e3"`],
    [[["content-length", "1.0"]], `invalid Content-Length "1.0"`],
    [[["content-length", "1 2"]], `invalid Content-Length "1 2"`],
    [[["content-length", ""]], `invalid Content-Length ""`],
    [[["content-length", "5,"]], `invalid Content-Length "5, "`],
    [[["content-length", "1234567890123456"]], `invalid Content-Length "1234567890123456"`],
    [[["content-length", "\u0661"]], `invalid Content-Length "\u0661"`],
  ] as [[string, string][], string][])("rejects the Content-Length %j", (fields, message) => {
    expectProtocolError(() => lengthOf(...fields), message);
  });

  it("reads until close when neither framing field is present", () => {
    expect(lengthOf()).toEqual({ kind: "close" });
    expect(lengthOf(["content-type", "application/octet-stream"])).toEqual({ kind: "close" });
  });
});
