import type { Readable } from "node:stream";
import { CocoonError } from "../../errors.js";
import type { KubeRequest, KubeRequester } from "./kube-request.js";
import { KubeStatusError } from "./kube-status-error.js";

/** Bytes of a refusal's `Status` read. @internal */
export const MAX_STATUS_BYTES = 64 * 1024;

/** The default cap of one answer to a write or a get: an object is at most 1.5 MiB in etcd, with room to spare. @internal */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The default deadline of one request, its answer read included. @internal */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** How one answer is read. @internal */
export interface AnswerBounds {
  /** The most bytes read; past it the request is dropped with `ERR_ANSWER_TOO_LARGE`. */
  readonly maxBytes?: number | undefined;
  /** The whole request's deadline, the answer read included. */
  readonly timeoutMs?: number | undefined;
  /** What the answer is, for the message: `the Pod list`. */
  readonly what?: string | undefined;
}

/**
 * Sends `request` and reads its answer as JSON, within a byte cap and a deadline. A status other
 * than 2xx rejects with {@link KubeStatusError} (its `Status` read up to 64 KiB).
 *
 * @throws {@link CocoonError} `ERR_ANSWER_TOO_LARGE` past the cap; `ERR_UNEXPECTED_OBJECT` for a 2xx
 * answer that is not JSON; {@link KubeStatusError} for a refusal; the signal's reason, or a
 * `TimeoutError` at the deadline.
 * @internal
 */
export async function requestJSON(requester: KubeRequester, request: KubeRequest, bounds: AnswerBounds = {}): Promise<unknown> {
  const { maxBytes = DEFAULT_MAX_ANSWER_BYTES, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS } = bounds;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal === undefined ? deadline : AbortSignal.any([request.signal, deadline]);
  signal.throwIfAborted();
  const label = `${request.method} ${request.path}`;
  const response = await requester.send({ ...request, signal });
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  const text = await readCapped(
    response.body,
    ok ? maxBytes : MAX_STATUS_BYTES,
    ok ? (bounds.what ?? `the answer to ${label}`) : undefined,
    signal,
  );
  if (!ok) throw new KubeStatusError(response.statusCode, text, label);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CocoonError("ERR_UNEXPECTED_OBJECT", `the answer to ${label} is not JSON`, { cause: err });
  }
}

/**
 * Reads `body` as UTF-8 text, at most `maxBytes`: past them it is destroyed and, when `what` names
 * the answer, rejects with `ERR_ANSWER_TOO_LARGE`; without `what` the text is cut at the cap.
 *
 * @internal
 */
export function readCapped(body: Readable, maxBytes: number, what: string | undefined, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: unknown, text?: string): void => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      if (error !== undefined) {
        body.destroy();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, as a fetch rejects
        reject(error);
      } else resolve(text ?? "");
    };
    const onAbort = (): void => finish(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    body.on("data", (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > maxBytes) {
        if (what !== undefined) {
          finish(new CocoonError("ERR_ANSWER_TOO_LARGE", `${what} from the API server is longer than ${String(maxBytes)} bytes: dropped`));
          return;
        }
        parts.push(chunk.subarray(0, maxBytes - size));
        body.destroy();
        finish(undefined, Buffer.concat(parts).toString("utf8"));
        return;
      }
      parts.push(chunk);
      size += chunk.length;
    });
    body.on("end", () => finish(undefined, Buffer.concat(parts, size).toString("utf8")));
    body.on("error", (err) => finish(signal.aborted ? signal.reason : err));
    body.on("close", () =>
      finish(
        signal.aborted
          ? signal.reason
          : new CocoonError("ERR_UNEXPECTED_OBJECT", "the API server closed the connection inside its answer: cut short"),
      ),
    );
  });
}
