import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { decodeAdmissionReview } from "./decode.js";
import { firstJSONObject } from "./first-json-value.js";

/** A request-like stream with the given body chunks and headers. */
const request = (chunks: (string | Buffer)[], headers: Record<string, string> = {}): IncomingMessage =>
  Object.assign(Readable.from(chunks.map((c) => Buffer.from(c))), { headers }) as unknown as IncomingMessage;

async function decodeError(req: IncomingMessage, maxBytes?: number): Promise<Error> {
  try {
    await decodeAdmissionReview(req, maxBytes);
  } catch (err) {
    expect(isCocoonError(err, "ERR_ADMISSION_DECODE")).toBe(true);
    return err as Error;
  }
  throw new Error("expected a decode error");
}

describe("firstJSONObject", () => {
  it.each([
    ["object", '{"a":1}', '{"a":1}'],
    ["leading whitespace", ' \t\r\n{"a":1}', '{"a":1}'],
    ["trailing data", '{"a":[1,{"b":2}]} {"c":3}', '{"a":[1,{"b":2}]}'],
    ["braces inside strings", '{"a":"}{\\"]"}tail', '{"a":"}{\\"]"}'],
    ["escaped backslash before a quote", '{"a":"\\\\"}x', '{"a":"\\\\"}'],
    ["null", "null", null],
    ["null with trailing bytes", "nullx", null],
  ])("%s", (_name, text, want) => {
    expect(firstJSONObject(text)).toBe(want);
  });

  it.each([
    ["empty", "", "EOF"],
    ["whitespace only", "  \n", "EOF"],
    ["array", "[1]", "the body is not a JSON object"],
    ["number", "12", "the body is not a JSON object"],
    ["bad literal", "nul", "invalid JSON value"],
    ["unclosed", '{"a":{}', "unexpected EOF"],
    ["unclosed string", '{"a":"}', "unexpected EOF"],
  ])("%s throws %s", (_name, text, message) => {
    expect(() => firstJSONObject(text)).toThrow(message);
  });
});

describe("decodeAdmissionReview", () => {
  it("decodes a review split over chunks", async () => {
    const review = await decodeAdmissionReview(
      request(['{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u', '1","operation":"CREATE"}}']),
    );
    expect(review).toStrictEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: "u1", operation: "CREATE" },
    });
  });

  it("defaults a missing uid to the empty string and keeps unknown fields", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"extra":true},"unknownTop":1}']));
    expect(review).toStrictEqual({ request: { extra: true, uid: "" } });
  });

  it("treats null fields as absent", async () => {
    expect(await decodeAdmissionReview(request(['{"kind":null,"request":null,"response":null}']))).toStrictEqual({});
  });

  it("keeps a response object as sent", async () => {
    const review = await decodeAdmissionReview(request(['{"response":{"uid":"r","allowed":true}}']));
    expect(review.response).toStrictEqual({ uid: "r", allowed: true });
  });

  it("prefers an exact key over a case-insensitive one", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"uid":"exact","UID":"folded"}}']));
    expect(review.request?.uid).toBe("folded"); // Go: later keys overwrite, whichever spelling
  });

  it("replaces invalid UTF-8 with U+FFFD, like Go", async () => {
    const body = Buffer.concat([Buffer.from('{"request":{"uid":"a'), Buffer.from([0xff]), Buffer.from('b"}}')]);
    expect((await decodeAdmissionReview(request([body]))).request?.uid).toBe("a\uFFFDb");
  });

  it.each([
    ["empty body", [""], "decode admission review: EOF"],
    ["invalid JSON", ["{nope}"], /^decode admission review: /],
    ["response not an object", ['{"response":[]}'], "decode admission review: response is not an object"],
    ["apiVersion not a string", ['{"apiVersion":{}}'], "decode admission review: apiVersion is not a string"],
  ])("rejects %s", async (_name, chunks, message) => {
    const err = await decodeError(request(chunks));
    if (typeof message === "string") expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });

  it("refuses up front from Content-Length", async () => {
    const err = await decodeError(request(["{}"], { "content-length": "11" }), 10);
    expect(err.message).toBe("decode admission review: body exceeds 10 bytes");
  });

  it("refuses as soon as the body passes the cap, then discards the rest unbuffered", async () => {
    let pulled = 0;
    const chunks = async function* () {
      for (let i = 0; i < 50; i++) {
        pulled++;
        await new Promise((r) => setImmediate(r));
        yield Buffer.alloc(8, 0x20);
      }
    };
    const req = Object.assign(Readable.from(chunks()), { headers: {} }) as unknown as IncomingMessage;
    const pulledAtRefusal = await decodeAdmissionReview(req, 20).then(
      () => Infinity,
      (err: Error) => {
        expect(err.message).toBe("decode admission review: body exceeds 20 bytes");
        return pulled;
      },
    );
    expect(pulledAtRefusal).toBeLessThanOrEqual(4); // the third chunk (24 bytes > 20), plus one read ahead
    await new Promise((r) => req.once("end", r));
    expect(pulled).toBe(50); // drained, so a keep-alive connection stays usable
    expect(req.listenerCount("data")).toBe(0);
  });

  it.each([0, -1, Number.NaN, Infinity])("maxBytes %s means the 10 MiB default", async (maxBytes) => {
    const err = await decodeError(request(["{}"], { "content-length": String((10 << 20) + 1) }), maxBytes);
    expect(err.message).toBe("decode admission review: body exceeds 10485760 bytes");
    expect((await decodeAdmissionReview(request(['{"request":{"uid":"x"}}']), maxBytes)).request?.uid).toBe("x");
  });

  it("reports a stream error with its cause", async () => {
    const req = Object.assign(
      new Readable({
        read() {
          this.destroy(new Error("socket hang up"));
        },
      }),
      { headers: {} },
    ) as unknown as IncomingMessage;
    const err = await decodeError(req);
    expect(err.message).toBe("decode admission review: socket hang up");
    expect((err.cause as Error).message).toBe("socket hang up");
  });

  it("reports a body already consumed as empty", async () => {
    const req = request(["{}"]);
    for await (const _ of req) void _;
    expect((await decodeError(req)).message).toBe("decode admission review: EOF");
  });
});
