import { RegistryError } from "../errors.js";
import { transportError } from "./registry-http-error.js";
import type { RegistryResponse } from "./registry-response.js";
import { socketBody } from "./socket-http/socket-response.js";

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
export async function* bodyChunks(response: RegistryResponse, ctx: BodyContext): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = socketBody(response) ?? response.body?.getReader();
  if (reader === undefined) return;
  let stop: "timeout" | "abort" | undefined;
  const cancel = (why: "timeout" | "abort"): void => {
    stop = why;
    void reader.cancel().catch(() => undefined);
  };
  const onAbort = (): void => cancel("abort");
  // One watchdog per body, not a timer per chunk: a read only stamps its start. When the watchdog
  // fires during a read it sleeps again for what is left of that read's wait; between reads (the
  // consumer, not the peer, holds the body) it stops, and the next read starts it again.
  let readStarted = 0;
  let reading = false;
  let watchdog: NodeJS.Timeout | undefined;
  const watch = (): void => {
    watchdog = undefined;
    if (!reading) return;
    const waited = performance.now() - readStarted;
    if (waited >= ctx.idleTimeoutMs) cancel("timeout");
    else watchdog = setTimeout(watch, ctx.idleTimeoutMs - waited);
  };
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (ctx.signal?.aborted === true) throw ctx.signal.reason;
      let chunk: { done: false; value: Uint8Array } | { done: true; value?: Uint8Array | undefined };
      readStarted = performance.now();
      reading = true;
      watchdog ??= setTimeout(watch, ctx.idleTimeoutMs);
      try {
        chunk = await reader.read();
      } catch (err) {
        if (stop === undefined) throw transportError(ctx.what, ctx.request, err);
        chunk = { done: true, value: undefined };
      } finally {
        reading = false;
      }
      if (stop === "abort") throw ctx.signal?.reason;
      if (stop === "timeout") {
        throw new RegistryError("ERR_REGISTRY_TIMEOUT", `${ctx.what}: no data for ${ctx.idleTimeoutMs} ms`, { request: ctx.request });
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    clearTimeout(watchdog);
    ctx.signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => undefined);
  }
}

/** Reads a whole (small) body, such as a manifest, under the same rules; over `maxBytes` it fails with `ERR_REGISTRY_STATUS`. */
export async function readBody(response: RegistryResponse, ctx: BodyContext, maxBytes: number): Promise<Uint8Array> {
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

/** Drops a response's body unread; the socket client's without making a web stream of it. */
export async function discardBody(response: RegistryResponse): Promise<void> {
  await (socketBody(response) ?? response.body)?.cancel();
}
