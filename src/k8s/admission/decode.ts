// Reading an `AdmissionReview` from an HTTP request (Go's `admission.Decode`).
import type { IncomingMessage } from "node:http";
import { CocoonError } from "../../errors.js";
import { decodeGo, foldName, readFirstJSONValue, type JSONNode, type RawText } from "../../internal/go/index.js";
import { DEFAULT_MAX_BODY } from "./response.js";
import { ADMISSION_REVIEW } from "./review-go-types.js";
import type { AdmissionReview } from "./types.js";

const decodeError = (detail: string, cause?: unknown): CocoonError =>
  new CocoonError("ERR_ADMISSION_DECODE", `decode admission review: ${detail}`, cause === undefined ? undefined : { cause });

/** The `RawExtension` fields of a request: handed to the handler parsed, echoed as their exact text. */
const RAW_FIELDS = ["object", "oldObject", "options"] as const;

/** Where a decoded request keeps each raw field's parsed value and the text it was parsed from (not enumerable). */
const RAW_TEXTS = Symbol("rawTexts");
type RawTexts = Map<string, { readonly value: unknown; readonly text: string }>;

/**
 * The text `value` was decoded from, when it is still the value decoded into `request[field]`
 * (Go echoes a `RawExtension`'s bytes; a handler that replaced the value gets it written as JSON).
 *
 * @internal
 */
export function decodedRawText(request: object, field: string, value: unknown): string | undefined {
  const raw = (request as { [RAW_TEXTS]?: RawTexts })[RAW_TEXTS]?.get(field);
  return raw !== undefined && raw.value === value ? raw.text : undefined;
}

/**
 * Decodes an `AdmissionReview` from the body text as Go's `json.Decoder` decodes it into
 * `admissionv1.AdmissionReview`.
 *
 * @throws `CocoonError` `ERR_ADMISSION_DECODE` where Go's decoder returns an error.
 * @internal
 */
export function reviewFromText(text: string): AdmissionReview {
  let review: AdmissionReview;
  let read: ReturnType<typeof readFirstJSONValue>;
  try {
    read = readFirstJSONValue(text);
    review = decodeGo(ADMISSION_REVIEW, read.tree, text, "AdmissionReview") as AdmissionReview; // null: Go's zero review
  } catch (err) {
    throw decodeError((err as Error).message, err);
  }
  const request = review.request as Record<string, unknown> | undefined;
  if (request !== undefined) {
    const raws: RawTexts = new Map();
    for (const field of RAW_FIELDS) {
      const raw = request[field] as RawText | undefined;
      if (raw === undefined) continue;
      const value: unknown = valueAt(read.tree, read.value, ["request", field]) ?? JSON.parse(raw.rawText);
      raws.set(field, { value, text: raw.rawText });
      request[field] = value;
    }
    Object.defineProperty(request, RAW_TEXTS, { value: raws });
  }
  return review;
}

/**
 * The value at a path of Go field names in the already parsed body, when each step is the only
 * member that matches (so no repeated key was merged); `undefined` otherwise.
 */
function valueAt(tree: JSONNode, value: unknown, path: readonly string[]): unknown {
  let node = tree;
  let at = value;
  for (const name of path) {
    if (node.kind !== "object" || typeof at !== "object" || at === null) return undefined;
    const matches = node.members.filter(([key]) => foldName(key) === foldName(name));
    if (matches.length !== 1) return undefined;
    const [key, child] = matches[0] as readonly [string, JSONNode];
    node = child;
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/** Reads the body, refusing it as soon as it grows past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (req.readableEnded) {
      resolve(Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const tooLarge = (): void => {
      cleanup();
      req.resume(); // discard the rest so the response can still be sent
      reject(decodeError(`body exceeds ${String(limit)} bytes`));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) tooLarge();
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(decodeError(err.message, err));
    };
    const onClose = (): void => {
      cleanup();
      reject(decodeError("request closed before the body was complete"));
    };
    if (Number(req.headers["content-length"]) > limit) {
      tooLarge();
      return;
    }
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * Reads and decodes the `AdmissionReview` in an HTTP request body (Go's `admission.Decode`).
 *
 * The review is Go's typed `admissionv1.AdmissionReview`: a field of the wrong JSON type (`dryRun:
 * "yes"`, `operation: 5`, `userInfo: []`), an integer out of range or bad base64 is an error, as
 * in Go; unknown fields are dropped; absent fields hold Go's zero values (`uid: ""`, `kind: {group:
 * "", version: "", kind: ""}`, `userInfo: {}`); keys match case-insensitively (`Request`, `UID`)
 * as `encoding/json` matches struct fields, and a repeated key is decoded into what the first one
 * left. `object`, `oldObject` and `options` are handed over parsed, and remembered as sent so the
 * handler echoes their exact text. Only the first JSON value is read and anything after it is
 * ignored; a body of `null` gives an empty review; nesting deeper than Go's 10,000 levels is an
 * error. Unlike Go, which truncates an over-long body (normally a decode error), a body longer
 * than `maxBytes` is refused as soon as the cap is passed (or up front from `Content-Length`) and
 * the rest is discarded unread. Invalid UTF-8 becomes U+FFFD and a byte-order mark is an error.
 *
 * @param req - The incoming request; its body is consumed.
 * @param maxBytes - Body cap; `0`, negative or not finite means {@link DEFAULT_MAX_BODY}.
 * @throws `CocoonError` `ERR_ADMISSION_DECODE`, message `decode admission review: …`.
 * @example
 * ```ts
 * const review = await decodeAdmissionReview(req);
 * console.log(review.request?.operation, review.request?.uid);
 * ```
 */
export async function decodeAdmissionReview(req: IncomingMessage, maxBytes: number = DEFAULT_MAX_BODY): Promise<AdmissionReview> {
  const limit = Number.isFinite(maxBytes) && maxBytes > 0 ? maxBytes : DEFAULT_MAX_BODY;
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await readBody(req, limit));
  return reviewFromText(text);
}
