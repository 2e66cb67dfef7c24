import { RegistryError } from "../errors.js";
import { transportError } from "./registry-http-error.js";

/** Names a body read for its errors, and bounds it. */
export interface BodyContext {
  readonly what: string;
  readonly request: string;
  /** Longest wait for the next chunk. */
  readonly idleTimeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Reads a response body chunk by chunk, never holding it whole: a stall longer than
 * `idleTimeoutMs` fails with `ERR_REGISTRY_TIMEOUT`, a broken connection with
 * `ERR_REGISTRY_TRANSPORT`, and an abort with the signal's reason. Stopping early cancels the body.
 */
export async function* bodyChunks(response: Response, ctx: BodyContext): AsyncGenerator<Uint8Array, void, undefined> {
  if (response.body === null) return;
  const reader = response.body.getReader();
  let stop: "timeout" | "abort" | undefined;
  const onAbort = (): void => {
    stop = "abort";
    void reader.cancel().catch(() => undefined);
  };
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (ctx.signal?.aborted === true) throw ctx.signal.reason;
      const timer = setTimeout(() => {
        stop = "timeout";
        void reader.cancel().catch(() => undefined);
      }, ctx.idleTimeoutMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (stop === undefined) throw transportError(ctx.what, ctx.request, err);
        chunk = { done: true, value: undefined };
      } finally {
        clearTimeout(timer);
      }
      if (stop === "abort") throw ctx.signal?.reason;
      if (stop === "timeout") {
        throw new RegistryError("ERR_REGISTRY_TIMEOUT", `${ctx.what}: no data for ${ctx.idleTimeoutMs} ms`, { request: ctx.request });
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    ctx.signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => undefined);
  }
}

/** Reads a whole (small) body, such as a manifest, under the same rules; over `maxBytes` it fails with `ERR_REGISTRY_STATUS`. */
export async function readBody(response: Response, ctx: BodyContext, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of bodyChunks(response, ctx)) {
    total += part.length;
    if (total > maxBytes)
      throw new RegistryError("ERR_REGISTRY_STATUS", `${ctx.what}: the body is over the ${maxBytes}-byte limit`, { request: ctx.request });
    parts.push(part);
  }
  return Buffer.concat(parts);
}
