import { setTimeout as sleep } from "node:timers/promises";
import { isRegistryError, RegistryError } from "../errors.js";
import type { Authorizer } from "./authorizer.js";
import { streamBody } from "./body-stream.js";
import { parseChallenge } from "./challenge.js";
import { startDeadline, untilAborted } from "./deadline.js";
import { fetchFollowing, type FollowedResponse, type RedirectableInit } from "./follow-redirects.js";
import { statusError, transportError } from "./registry-http-error.js";
import { retryDelayMs } from "./retry-after.js";
import type { RegistryFetch, RegistryResponse } from "./registry-response.js";
import { discardBody } from "./body.js";

/** One request to a registry, with what the transport needs to authorize, retry and name it. */
export interface RegistryRequest {
  readonly method: "GET" | "HEAD" | "PUT" | "PATCH" | "POST" | "DELETE";
  readonly url: string;
  /** `host[:port]`, the key of credentials and tokens, and the only host that gets `Authorization`. */
  readonly registry: string;
  /** Token scope, e.g. `repository:cocoon/vm-1:pull`. */
  readonly scope: string;
  /** Error prefix, e.g. `head manifest vm-1:hibernate`. */
  readonly what: string;
  /** Statuses that count as success; anything else is an error. After a redirect only the 2xx among them do. */
  readonly ok: readonly number[];
  readonly headers?: Readonly<Record<string, string>>;
  /** A `Uint8Array` can be sent again; a stream is sent once and never retried. */
  readonly body?: Uint8Array | AsyncIterable<Uint8Array>;
  /** The caller's signal. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The call's signal from `startDeadline`: {@link signal} plus the call's overall deadline, shared
   * by its requests; without one the request gets its own. A streamed body's transfer is outside
   * it (bounded by `timeoutMs`).
   */
  readonly deadline?: AbortSignal | undefined;
}

/** Settings of a {@link Transport}. */
export interface TransportOptions {
  readonly authorizer: Authorizer;
  readonly fetch: RegistryFetch;
  /** Hosts that may be spoken to over plain HTTP, besides loopback. */
  readonly insecure: readonly string[];
  /** Deadline for each attempt to get response headers, and for reading an error body. */
  readonly timeoutMs: number;
  /** Overall deadline of a request that was given none. */
  readonly deadlineMs: number;
  /** Extra attempts for safe requests. */
  readonly retries: number;
}

/**
 * Sends registry requests: authorizes them (one retry after a 401 challenge), follows redirects
 * hop by hop (`Authorization` only to the registry's own host, no plain HTTP to a host that is not
 * loopback or insecure), bounds each attempt by a timeout and the whole request by a deadline,
 * retries only what is safe (GET/HEAD on a broken connection, and any replayable request on
 * 429/503), and turns every failure into a typed {@link RegistryError}.
 */
export class Transport {
  readonly #o: TransportOptions;
  /** HTTP requests sent to registries, redirect hops included (token requests not included). */
  requests = 0;

  constructor(options: TransportOptions) {
    this.#o = options;
  }

  /** Sends `req` and resolves to a response whose status is in `req.ok`. */
  async send(req: RegistryRequest): Promise<RegistryResponse> {
    const own = req.deadline === undefined ? startDeadline(req.what, this.#o.deadlineMs, req.signal) : undefined;
    const bounded = own?.signal ?? req.deadline;
    try {
      return await this.#send(req, bounded);
    } finally {
      own?.end();
    }
  }

  async #send(req: RegistryRequest, bounded: AbortSignal | undefined): Promise<RegistryResponse> {
    const streamed = req.body !== undefined && !(req.body instanceof Uint8Array);
    const idempotent = req.method === "GET" || req.method === "HEAD";
    const authorizer = this.#o.authorizer;
    let auth = await untilAborted(authorizer.header(req.registry, req.scope, bounded), bounded);
    let answeredChallenge = false;
    for (let attempt = 0; ; attempt++) {
      const followed = await this.#attempt(req, auth, streamed ? req.signal : bounded).catch((err: unknown) => {
        if (!idempotent || attempt >= this.#o.retries || !isRegistryError(err, "ERR_REGISTRY_TRANSPORT")) throw err;
        return undefined;
      });
      if (followed === undefined) {
        await sleep(100 * 2 ** attempt, undefined, bounded ? { signal: bounded } : {}).catch(() => bounded?.throwIfAborted());
        continue;
      }
      const { response, redirected } = followed;
      if (req.ok.includes(response.status) && (!redirected || response.status < 300)) return response;
      const challenge = response.status === 401 && !redirected ? parseChallenge(response.headers.get("www-authenticate")) : undefined;
      if (challenge !== undefined && !answeredChallenge && !streamed) {
        answeredChallenge = true;
        const next = await untilAborted(authorizer.answer(req.registry, req.scope, challenge, bounded), bounded);
        if (next !== undefined && next !== auth) {
          await discardBody(response);
          auth = next;
          attempt--; // an auth round trip is not a retry
          continue;
        }
      }
      const delay = retryDelayMs(response, attempt, { idempotent, replayable: !streamed, retries: this.#o.retries });
      if (delay !== undefined) {
        await discardBody(response);
        await sleep(delay, undefined, bounded ? { signal: bounded } : {}).catch(() => bounded?.throwIfAborted());
        continue;
      }
      if (redirected) throw await redirectTargetError(req, followed);
      const forbidden = challenge?.params.error === "insufficient_scope" && auth !== undefined;
      throw await statusError(response, {
        what: req.what,
        request: `${req.method} ${req.url}`,
        timeoutMs: this.#o.timeoutMs,
        signal: streamed ? req.signal : bounded,
        forbidden,
        redact: authorizer.redact,
      });
    }
  }

  async #attempt(req: RegistryRequest, auth: string | undefined, signal: AbortSignal | undefined): Promise<FollowedResponse> {
    signal?.throwIfAborted();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#o.timeoutMs);
    const fetchSignal = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    const init: RedirectableInit = { method: req.method, headers: { ...req.headers }, signal: fetchSignal };
    if (req.body !== undefined) {
      if (req.body instanceof Uint8Array) init.body = req.body;
      else {
        init.body = streamBody(req.body);
        init.duplex = "half";
      }
    }
    const counted: RegistryFetch = (input, options) => {
      this.requests++;
      return this.#o.fetch(input, options);
    };
    try {
      return await fetchFollowing(req.url, init, {
        fetch: counted,
        insecure: this.#o.insecure,
        home: req.registry,
        authorization: auth,
        replayable: init.body === undefined || init.body instanceof Uint8Array,
        what: req.what,
      });
    } catch (err) {
      if (signal?.aborted === true) throw signal.reason;
      if (timeout.signal.aborted) {
        throw new RegistryError("ERR_REGISTRY_TIMEOUT", `${req.what}: no answer within ${this.#o.timeoutMs} ms`, {
          request: `${req.method} ${req.url}`,
          cause: err,
        });
      }
      if (isRegistryError(err)) throw err;
      throw transportError(req.what, `${req.method} ${req.url}`, err);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A redirect target is not the registry: whatever it answers besides success (a 404 included) is a
 * transport failure, never "absent".
 */
async function redirectTargetError(req: RegistryRequest, followed: FollowedResponse): Promise<RegistryError> {
  await discardBody(followed.response).catch(() => undefined);
  const { status } = followed.response;
  return new RegistryError(
    "ERR_REGISTRY_TRANSPORT",
    `${req.what}: the redirect target ${followed.url.host} answered ${status}; only the registry's own answer can say absent`,
    { status, request: `${req.method} ${req.url}` },
  );
}
