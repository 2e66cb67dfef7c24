import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { decodeAdmissionReview, reviewFromText } from "./decode.js";

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

describe("decodeAdmissionReview", () => {
  it("decodes a review split over chunks", async () => {
    const review = await decodeAdmissionReview(
      request(['{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u', '1","operation":"CREATE"}}']),
    );
    expect(review).toMatchObject({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: "u1", operation: "CREATE" },
    });
  });

  it("gives Go's typed request: zero values filled, unknown fields dropped", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"extra":true},"unknownTop":1}']));
    expect(review).toStrictEqual({
      kind: "",
      apiVersion: "",
      request: {
        uid: "",
        kind: { group: "", version: "", kind: "" },
        resource: { group: "", version: "", resource: "" },
        subResource: "",
        requestSubResource: "",
        name: "",
        namespace: "",
        operation: "",
        userInfo: { username: "", uid: "" },
      },
    });
  });

  it("treats null fields as Go does: a no-op for values, nil for pointers", async () => {
    expect(await decodeAdmissionReview(request(['{"kind":null,"request":null,"response":null}']))).toStrictEqual({
      kind: "",
      apiVersion: "",
    });
  });

  it("decodes a response into Go's typed response", async () => {
    const review = await decodeAdmissionReview(request(['{"response":{"uid":"r","allowed":true,"x":1}}']));
    expect(review.response).toStrictEqual({ uid: "r", allowed: true });
  });

  it("hands object, oldObject and options over parsed", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"object":{"a":[1.0]},"oldObject":null,"options":"x"}}']));
    expect(review.request?.object).toEqual({ a: [1] });
    expect(review.request?.oldObject).toBeUndefined();
    expect(review.request?.options).toBe("x");
  });

  it.each([
    ["dryRun as a string", '{"request":{"dryRun":"yes"}}'],
    ["operation as a number", '{"request":{"operation":5}}'],
    ["kind as a string", '{"request":{"kind":"CocoonSet"}}'],
    ["userInfo as a list", '{"request":{"userInfo":[]}}'],
    ["name as a number", '{"request":{"name":7}}'],
    ["allowed as a string", '{"response":{"allowed":"yes"}}'],
    ["a code out of int32", '{"response":{"status":{"code":2147483648}}}'],
    ["a fraction for an integer", '{"response":{"status":{"code":1.5}}}'],
    ["bad base64", '{"response":{"patch":"a"}}'],
    ["a group that is not a string", '{"request":{"userInfo":{"groups":[1]}}}'],
  ])("refuses %s, as Go's decoder does", async (_name, body) => {
    expect((await decodeError(request([body]))).message).toMatch(/^decode admission review: /);
  });

  it("never reads a __proto__ key as a field", async () => {
    const review = await decodeAdmissionReview(request(['{"__proto__":{"request":{"uid":"s"}}}']));
    expect(review.request).toBeUndefined();
    expect(Object.getPrototypeOf(review)).toBe(Object.prototype);
  });

  it("refuses a body nested deeper than Go's 10,000 levels", async () => {
    const deep = `{"request":{"object":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    expect((await decodeError(request([deep]))).message).toBe("decode admission review: exceeded max depth");
  });

  it("prefers an exact key over a case-insensitive one", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"uid":"exact","UID":"folded"}}']));
    expect(review.request?.uid).toBe("folded"); // Go: later keys overwrite, whichever spelling
  });

  it("matches keys as Go folds them, KELVIN SIGN and LONG S included", async () => {
    const review = await decodeAdmissionReview(request(['{"request":{"\u212aind":{"\u212aIND":"g"},"\u017fubResource":"s"}}']));
    expect(review.request?.kind).toEqual({ group: "", version: "", kind: "g" });
    expect(review.request?.subResource).toBe("s");
  });

  it("replaces invalid UTF-8 with U+FFFD, like Go", async () => {
    const body = Buffer.concat([Buffer.from('{"request":{"uid":"a'), Buffer.from([0xff]), Buffer.from('b"}}')]);
    expect((await decodeAdmissionReview(request([body]))).request?.uid).toBe("a\uFFFDb");
  });

  it.each([
    ["empty body", [""], "decode admission review: unexpected EOF"],
    ["invalid JSON", ["{nope}"], /^decode admission review: /],
    ["response not an object", ['{"response":[]}'], /^decode admission review: cannot unmarshal array/],
    ["apiVersion not a string", ['{"apiVersion":{}}'], /^decode admission review: cannot unmarshal object/],
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
      (err: unknown) => {
        expect((err as Error).message).toBe("decode admission review: body exceeds 20 bytes");
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
    for await (const _ of req) {
      // drain
    }
    expect((await decodeError(req)).message).toBe("decode admission review: unexpected EOF");
  });
});

describe("reviewFromText on large bodies", () => {
  /**
   * A review whose object holds a string of `length` characters (escapes included) and lists nested
   * `depth` deep, decoded from UTF-8 as a request body is: a flat string, where a concatenated one
   * would cost V8 more per character the longer it is.
   */
  const body = (length: number, depth: number): string =>
    new TextDecoder().decode(
      Buffer.from(
        `{"request":{"uid":"u","object":{"blob":"${'ab\\"<'.repeat(length / 5)}","deep":${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
      ),
    );
  const nested = (depth: number): unknown => {
    let value: unknown[] = [];
    for (let i = 1; i < depth; i++) value = [value];
    return value;
  };

  // Speed is measured by `npm run bench:admission` (its growth rows); here only the answer counts:
  // a quadratic walk of these bodies would not finish within the test timeout.
  it.each([
    ["a 1,000,000-character string", 1_000_000, 10],
    ["lists 2,500 deep", 10, 2_500],
  ])("decodes %s to the exact object", (_what, length, depth) => {
    const review = reviewFromText(body(length, depth));
    expect(review.request?.uid).toBe("u");
    expect(review.request?.object).toStrictEqual({ blob: 'ab"<'.repeat(length / 5), deep: nested(depth) });
  });
});
