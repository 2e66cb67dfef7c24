import {
  ApiException,
  HttpMethod,
  ResponseContext,
  type Configuration,
  type RequestContext,
  type ResponseBody,
} from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { MAX_STATUS_BYTES, readCapped } from "../request/read-answer.js";
import { sendContextGet, type ContextAnswer } from "./context-get.js";

/** One GET of {@link rawGet}. @internal */
export interface RawGetRequest {
  readonly path: string;
  /** Query parameters, in the order given; `undefined` values are left out. */
  readonly query: Readonly<Record<string, string | number | undefined>>;
  readonly signal: AbortSignal;
}

/** How the answer of a {@link rawGet} is read. @internal */
export interface RawGetBounds {
  /** The most bytes of a 200 answer read; past them the request is dropped with `ERR_ANSWER_TOO_LARGE`. */
  readonly maxBytes: number;
  /** The whole request's deadline, the answer read included. */
  readonly timeoutMs: number;
  /** What the answer is, for the message: `the Pod list`. */
  readonly what: string;
}

/**
 * Sends a GET of `path` as one of client-node's generated API methods builds it, through the
 * configuration's public parts: its server, its authentication (`BearerToken`, then `default`),
 * its middleware before and after (a signal a middleware sets on the request stops it too, with
 * `request.signal` and the deadline). It goes out as the watch requests do, on the connections the
 * authentication chose (client-node 1's agent over `node:https`, client-node 2's undici
 * dispatcher), not through the configuration's `httpApi`: client-node's HTTP libraries read a body
 * only whole, this reads it within `maxBytes` as it arrives (a `Content-Length` past them is
 * refused before any of it is read). Resolves to the server's JSON as it came (no model classes);
 * a status other than 200 rejects with the `ApiException` client-node throws for it, its body
 * read up to 64 KiB.
 *
 * @throws {@link CocoonError} `ERR_ANSWER_TOO_LARGE` past the cap; `ApiException` for a refusal;
 * the signal's reason, or a `TimeoutError` at the deadline.
 * @internal
 */
export async function rawGet(configuration: Configuration, request: RawGetRequest, bounds: RawGetBounds): Promise<unknown> {
  const deadline = AbortSignal.any([request.signal, AbortSignal.timeout(bounds.timeoutMs)]);
  let context: RequestContext = configuration.baseServer.makeRequestContext(request.path, HttpMethod.GET);
  context.setHeaderParam("Accept", "application/json, */*;q=0.8");
  for (const [name, value] of Object.entries(request.query)) if (value !== undefined) context.setQueryParam(name, String(value));
  for (const auth of [configuration.authMethods.BearerToken, configuration.authMethods.default]) {
    await auth?.applySecurityAuthentication(context);
  }
  for (const middleware of configuration.middleware) context = await middleware.pre(context).toPromise();
  const own = context.getSignal();
  const signal = own === undefined ? deadline : AbortSignal.any([deadline, own]);
  const answer = await sendContextGet(context, signal);
  try {
    let response = new ResponseContext(answer.statusCode, answer.headers, cappedBody(answer, bounds, signal));
    for (const middleware of [...configuration.middleware].reverse()) response = await middleware.post(response).toPromise();
    return await jsonOrThrow(response);
  } finally {
    if (!answer.body.readableEnded) answer.body.destroy();
  }
}

/**
 * The answer's body as client-node's `ResponseBody`, read once (by the middleware or by
 * {@link rawGet}) within the cap: a 200's past `maxBytes` rejects, a refusal's is cut at 64 KiB.
 */
function cappedBody(answer: ContextAnswer, bounds: RawGetBounds, signal: AbortSignal): ResponseBody {
  const ok = answer.statusCode === 200;
  const maxBytes = ok ? bounds.maxBytes : MAX_STATUS_BYTES;
  const declared = Number(answer.headers["content-length"] ?? NaN);
  let read: Promise<string> | undefined;
  const text = (): Promise<string> =>
    (read ??=
      ok && declared > maxBytes
        ? Promise.reject(
            new CocoonError("ERR_ANSWER_TOO_LARGE", `${bounds.what} from the API server is longer than ${String(maxBytes)} bytes: dropped`),
          )
        : readCapped(answer.body, maxBytes, ok ? bounds.what : undefined, signal));
  const binary = async (): Promise<Buffer> => Buffer.from(await text());
  // client-node 2's ResponseBody also has `stream()`; 1's has none.
  const body = {
    text,
    binary,
    stream: () =>
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          controller.enqueue(await binary());
          controller.close();
        },
      }),
  };
  return body;
}

/** client-node's processing of a list response, minus the deserialization into model classes. */
async function jsonOrThrow(response: ResponseContext): Promise<unknown> {
  const { httpStatusCode: code, headers, body } = response;
  if (code === 200) return JSON.parse(await body.text()) as unknown;
  if (code === 401) throw new ApiException(code, "Unauthorized", undefined, headers);
  throw new ApiException(code, "Unknown API Status Code!", await response.getBodyAsAny(), headers);
}
