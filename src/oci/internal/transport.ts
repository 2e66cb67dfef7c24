import { setTimeout as sleep } from "node:timers/promises";
import { isRegistryError, RegistryError } from "../errors.js";
import type { Authorizer } from "./authorizer.js";
import { streamBody } from "./body-stream.js";
import { parseChallenge } from "./challenge.js";
import { statusError, transportError } from "./registry-http-error.js";
import { retryDelayMs } from "./retry-after.js";

/** One request to a registry, with what the transport needs to authorize, retry and name it. */
export interface RegistryRequest {
  readonly method: "GET" | "HEAD" | "PUT" | "PATCH" | "POST" | "DELETE";
  readonly url: string;
  /** `host[:port]`, the key of credentials and tokens. */
  readonly registry: string;
  /** Token scope, e.g. `repository:cocoon/vm-1:pull`. */
  readonly scope: string;
  /** Error prefix, e.g. `head manifest vm-1:hibernate`. */
  readonly what: string;
  /** Statuses that count as success; anything else is an error. */
  readonly ok: readonly number[];
  readonly headers?: Readonly<Record<string, string>>;
  /** A `Uint8Array` can be sent again; a stream is sent once and never retried. */
  readonly body?: Uint8Array | AsyncIterable<Uint8Array>;
  readonly signal?: AbortSignal | undefined;
}

/** Settings of a {@link Transport}. */
export interface TransportOptions {
  readonly authorizer: Authorizer;
  readonly fetch: typeof fetch;
  /** Deadline for each attempt to get response headers. */
  readonly timeoutMs: number;
  /** Extra attempts for safe requests. */
  readonly retries: number;
}

/**
 * Sends registry requests: authorizes them (one retry after a 401 challenge), bounds each attempt
 * by a timeout, retries only what is safe (GET/HEAD on a broken connection, and any replayable
 * request on 429/503), and turns every failure into a typed {@link RegistryError}.
 */
export class Transport {
  readonly #o: TransportOptions;
  /** HTTP requests sent to registries (token requests not included). */
  requests = 0;

  constructor(options: TransportOptions) {
    this.#o = options;
  }

  /** Sends `req` and resolves to a response whose status is in `req.ok`. */
  async send(req: RegistryRequest): Promise<Response> {
    const replayable = !(req.body !== undefined && !(req.body instanceof Uint8Array));
    const idempotent = req.method === "GET" || req.method === "HEAD";
    let auth = await this.#o.authorizer.header(req.registry, req.scope, req.signal);
    let answeredChallenge = false;
    for (let attempt = 0; ; attempt++) {
      const response = await this.#attempt(req, auth).catch((err: unknown) => {
        if (!idempotent || attempt >= this.#o.retries || !isRegistryError(err, "ERR_REGISTRY_TRANSPORT")) throw err;
        return undefined;
      });
      if (response === undefined) {
        await sleep(100 * 2 ** attempt, undefined, req.signal ? { signal: req.signal } : {});
        continue;
      }
      if (req.ok.includes(response.status)) return response;
      const challenge = response.status === 401 ? parseChallenge(response.headers.get("www-authenticate")) : undefined;
      if (challenge !== undefined && !answeredChallenge && replayable) {
        answeredChallenge = true;
        const next = await this.#o.authorizer.answer(req.registry, req.scope, challenge, req.signal);
        if (next !== undefined && next !== auth) {
          await response.body?.cancel();
          auth = next;
          attempt--; // an auth round trip is not a retry
          continue;
        }
      }
      const delay = retryDelayMs(response, attempt, { idempotent, replayable, retries: this.#o.retries });
      if (delay !== undefined) {
        await response.body?.cancel();
        await sleep(delay, undefined, req.signal ? { signal: req.signal } : {});
        continue;
      }
      const forbidden = challenge?.params.error === "insufficient_scope" && auth !== undefined;
      throw await statusError(req.what, `${req.method} ${req.url}`, response, forbidden);
    }
  }

  async #attempt(req: RegistryRequest, auth: string | undefined): Promise<Response> {
    req.signal?.throwIfAborted();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#o.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
    const headers: Record<string, string> = { ...req.headers, ...(auth !== undefined && { authorization: auth }) };
    const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal, redirect: "follow" };
    if (req.body !== undefined) {
      if (req.body instanceof Uint8Array) init.body = req.body;
      else {
        init.body = streamBody(req.body);
        init.duplex = "half";
      }
    }
    this.requests++;
    try {
      return await this.#o.fetch(req.url, init);
    } catch (err) {
      if (req.signal?.aborted === true) throw req.signal.reason;
      if (timeout.signal.aborted) {
        throw new RegistryError("ERR_REGISTRY_TIMEOUT", `${req.what}: no answer within ${this.#o.timeoutMs} ms`, {
          request: `${req.method} ${req.url}`,
          cause: err,
        });
      }
      throw transportError(req.what, `${req.method} ${req.url}`, err);
    } finally {
      clearTimeout(timer);
    }
  }
}
