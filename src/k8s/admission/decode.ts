// Reading an `AdmissionReview` from an HTTP request (Go's `admission.Decode`).
import type { IncomingMessage } from "node:http";
import { CocoonError } from "../../errors.js";
import { firstJSONObject } from "./first-json-value.js";
import { DEFAULT_MAX_BODY } from "./response.js";
import type { AdmissionRequest, AdmissionResponse, AdmissionReview } from "./types.js";

const REVIEW_FIELDS = ["apiVersion", "kind", "request", "response"] as const;
const REQUEST_FIELDS = [
  "uid", "kind", "resource", "subResource", "requestKind", "requestResource", "requestSubResource",
  "name", "namespace", "operation", "userInfo", "object", "oldObject", "dryRun", "options",
] as const;

const decodeError = (detail: string, cause?: unknown): CocoonError =>
  new CocoonError("ERR_ADMISSION_DECODE", `decode admission review: ${detail}`, cause === undefined ? undefined : { cause });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Renames keys to the listed field names the way `encoding/json` matches them: an exact match,
 * else a case-insensitive one (`Request`, `UID`). Other keys are kept as they are.
 */
function canonicalKeys(obj: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const byLower = new Map(fields.map((f) => [f.toLowerCase(), f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    out[fields.includes(key) ? key : (byLower.get(key.toLowerCase()) ?? key)] = value;
  }
  return out;
}

/** Checks the types Go's struct decoding would reject and builds the review. */
function toReview(value: unknown): AdmissionReview {
  if (value === null) return {};
  if (!isObject(value)) throw decodeError("the body is not a JSON object");
  const raw = canonicalKeys(value, REVIEW_FIELDS);
  const review: AdmissionReview = {};
  for (const key of ["apiVersion", "kind"] as const) {
    const v = raw[key];
    if (typeof v === "string") review[key] = v;
    else if (v !== undefined && v !== null) throw decodeError(`${key} is not a string`);
  }
  if (raw["request"] !== undefined && raw["request"] !== null) {
    if (!isObject(raw["request"])) throw decodeError("request is not an object");
    const request = canonicalKeys(raw["request"], REQUEST_FIELDS);
    const uid = request["uid"] ?? "";
    if (typeof uid !== "string") throw decodeError("request.uid is not a string");
    review.request = { ...request, uid } as AdmissionRequest;
  }
  if (raw["response"] !== undefined && raw["response"] !== null) {
    if (!isObject(raw["response"])) throw decodeError("response is not an object");
    review.response = raw["response"] as unknown as AdmissionResponse;
  }
  return review;
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
 * Like Go: only the first JSON value is read and anything after it is ignored; a body of `null`
 * gives an empty review; unknown fields are kept but not checked; `apiVersion` and `kind` are
 * not checked; the top-level fields and those of `request` match case-insensitively
 * (`Request`, `UID`), as `encoding/json` matches struct fields, and are renamed to their
 * canonical names (nested objects such as `userInfo` are left as sent). Unlike Go, which
 * truncates an over-long body (normally a decode error), a body longer than `maxBytes` is
 * refused as soon as the cap is passed (or up front from `Content-Length`) and the rest is
 * discarded unread. Invalid UTF-8 becomes U+FFFD and a byte-order mark is an error, as in Go.
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
export async function decodeAdmissionReview(
  req: IncomingMessage,
  maxBytes: number = DEFAULT_MAX_BODY,
): Promise<AdmissionReview> {
  const limit = Number.isFinite(maxBytes) && maxBytes > 0 ? maxBytes : DEFAULT_MAX_BODY;
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await readBody(req, limit));
  let json: string | null;
  let value: unknown;
  try {
    json = firstJSONObject(text);
    value = json === null ? null : JSON.parse(json);
  } catch (err) {
    throw decodeError((err as Error).message, err);
  }
  return toReview(value);
}
