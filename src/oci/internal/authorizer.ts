import { isRegistryError, RegistryError } from "../errors.js";
import type { CredentialSource, RegistryCredentials } from "../credentials.js";
import { readBody } from "./body.js";
import type { AuthChallenge } from "./challenge.js";
import { untilAborted } from "./deadline.js";
import { fetchFollowing, type RedirectableInit } from "./follow-redirects.js";
import { statusError, transportError } from "./registry-http-error.js";
import { tokenRealm } from "./token-realm.js";
import type { RegistryFetch, RegistryResponse } from "./registry-response.js";

/** The largest token response read. */
export const MAX_TOKEN_BODY_BYTES = 1024 * 1024;

/** What the {@link Authorizer} needs from its client. */
export interface AuthorizerOptions {
  readonly credentials: CredentialSource | undefined;
  readonly insecure: readonly string[];
  readonly fetch: RegistryFetch;
  /** Longest wait for the token endpoint's headers, and longest stall of its body. */
  readonly timeoutMs: number;
}

interface CachedToken {
  readonly header: string;
  readonly expiresAt: number;
}

// RFC 6750 b64token, loosened to any visible ASCII: a token is sent back as a header value.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Answers registry auth challenges and remembers the answers: the scheme each registry asked for,
 * its credentials (looked up once), and bearer tokens per registry and scope until they expire.
 * It also remembers every secret it handled, so error messages can be cleaned of them ({@link redact}).
 */
export class Authorizer {
  readonly #options: AuthorizerOptions;
  readonly #challenges = new Map<string, AuthChallenge>();
  readonly #tokens = new Map<string, CachedToken>();
  readonly #credentials = new Map<string, Promise<RegistryCredentials | undefined>>();
  readonly #secrets = new Set<string>();
  /** Token endpoint requests sent so far, redirect hops included. */
  tokenRequests = 0;

  constructor(options: AuthorizerOptions) {
    this.#options = options;
  }

  /** `text` with every secret this authorizer handled (and its base64 and URL-encoded forms) replaced by `[REDACTED]`. */
  readonly redact = (text: string): string => {
    let out = text;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join("[REDACTED]");
    return out;
  };

  /** The `Authorization` header to send up front, from what earlier challenges taught; never a request. */
  async header(registry: string, scope: string, signal: AbortSignal | undefined): Promise<string | undefined> {
    const challenge = this.#challenges.get(registry);
    if (challenge?.scheme === "bearer") {
      const token = this.#tokens.get(`${registry} ${scope}`);
      return token !== undefined && token.expiresAt > Date.now() ? token.header : undefined;
    }
    if (challenge?.scheme === "basic") return basicHeader(await this.#credentialsFor(registry, signal));
    return undefined;
  }

  /**
   * Answers a 401's challenge: a fresh bearer token for `scope`, or basic credentials.
   *
   * @returns The header to retry with, or `undefined` when there is nothing new to try.
   */
  async answer(registry: string, scope: string, challenge: AuthChallenge, signal: AbortSignal | undefined): Promise<string | undefined> {
    this.#challenges.set(registry, challenge);
    const credentials = await this.#credentialsFor(registry, signal);
    if (challenge.scheme === "basic") return basicHeader(credentials);
    if (challenge.scheme !== "bearer" || challenge.params.realm === undefined) return undefined;
    const token = await this.#fetchToken(registry, challenge, challenge.params.scope ?? scope, credentials, signal);
    this.#tokens.set(`${registry} ${scope}`, token);
    return token.header;
  }

  #credentialsFor(registry: string, signal: AbortSignal | undefined): Promise<RegistryCredentials | undefined> {
    let found = this.#credentials.get(registry);
    if (found === undefined) {
      const source = this.#options.credentials;
      found = (source === undefined ? Promise.resolve(undefined) : Promise.resolve().then(() => source(registry, signal))).then(
        (credentials) => {
          this.#remember(credentials);
          return credentials;
        },
        (err: unknown) => {
          // A credential source is not the registry: its "not found" must never read as an absent manifest.
          if (!isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")) throw err;
          throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `credentials for ${registry}: ${err.message}`, { cause: err });
        },
      );
      this.#credentials.set(registry, found);
      found.catch(() => this.#credentials.delete(registry));
    }
    // A source that ignores the signal still cannot hold the call; a later call asks it again.
    return untilAborted(found, signal).catch((err: unknown) => {
      if (signal?.aborted === true && err === signal.reason) this.#credentials.delete(registry);
      throw err;
    });
  }

  #remember(credentials: RegistryCredentials | undefined): void {
    if (credentials === undefined) return;
    const secrets =
      "identityToken" in credentials ? [credentials.identityToken] : [credentials.password, basicHeader(credentials)?.slice(6) ?? ""];
    for (const secret of secrets) this.#addSecret(secret);
  }

  #addSecret(secret: string): void {
    if (secret.length < 4) return; // too short to search for without redacting ordinary words
    this.#secrets.add(secret);
    this.#secrets.add(encodeURIComponent(secret));
    this.#secrets.add(Buffer.from(secret).toString("base64"));
  }

  async #fetchToken(
    registry: string,
    challenge: AuthChallenge,
    scope: string,
    credentials: RegistryCredentials | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CachedToken> {
    const what = `get token for ${scope}`;
    const realm = tokenRealm(challenge.params.realm ?? "", registry, this.#options.insecure, what);
    const form = new URLSearchParams({ service: challenge.params.service ?? "", scope });
    let init: RedirectableInit;
    let authorization: string | undefined;
    if (credentials !== undefined && "identityToken" in credentials) {
      form.set("grant_type", "refresh_token");
      form.set("refresh_token", credentials.identityToken);
      form.set("client_id", "cocoon-common");
      init = { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } };
    } else {
      for (const [k, v] of form) realm.searchParams.set(k, v);
      authorization = basicHeader(credentials);
      init = { method: "GET" };
    }
    const request = `${init.method ?? "GET"} ${realm.origin}${realm.pathname}`;
    // Bounds the wait for headers only: the body is bounded by its stall timeout, its cap and the call's deadline.
    const headersTimeout = new AbortController();
    const timer = setTimeout(() => headersTimeout.abort(), this.#options.timeoutMs);
    const timeout = headersTimeout.signal;
    const attemptSignal = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    const counted: RegistryFetch = (input, options) => {
      this.tokenRequests++;
      return this.#options.fetch(input, options);
    };
    // Credentials go to the realm's host on the first hop only; a POST (a refresh token) is never redirected.
    const followed = await fetchFollowing(
      realm.href,
      { ...init, signal: attemptSignal },
      {
        fetch: counted,
        insecure: this.#options.insecure,
        home: realm.host,
        authorization,
        authFirstHopOnly: true,
        replayable: false,
        what,
        // A redirected token request goes only where a realm could: no detour to a private address.
        checkHop: (url) => tokenRealm(url.href, registry, this.#options.insecure, `${what} (redirected)`),
      },
    )
      .catch((err: unknown) => {
        if (signal?.aborted === true) throw signal.reason;
        if (timeout.aborted)
          throw new RegistryError("ERR_REGISTRY_TIMEOUT", `${what}: no answer within ${this.#options.timeoutMs} ms`, { request });
        throw isRegistryError(err) ? err : transportError(what, request, err);
      })
      .finally(() => clearTimeout(timer));
    const { response } = followed;
    if (response.status !== 200) {
      throw await statusError(response, {
        what: followed.redirected ? `${what} (redirected to ${followed.url.host})` : what,
        request,
        timeoutMs: this.#options.timeoutMs,
        signal,
        // An auth failure whatever the status: a token endpoint's 404 must never read as an absent manifest.
        code: response.status === 403 ? "ERR_REGISTRY_FORBIDDEN" : "ERR_REGISTRY_UNAUTHORIZED",
        redact: this.redact,
      });
    }
    const body = await readTokenBody(response, what, request, this.#options.timeoutMs, signal);
    const token = typeof body.token === "string" && body.token !== "" ? body.token : body.access_token;
    if (typeof token !== "string" || token === "")
      throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: the token endpoint sent no token`, { request });
    if (!HEADER_SAFE.test(token))
      throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: the token endpoint sent a token that is not a valid header value`, {
        request,
      });
    this.#addSecret(token);
    if (typeof body.refresh_token === "string") this.#addSecret(body.refresh_token);
    const seconds = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 60;
    return { header: `Bearer ${token}`, expiresAt: Date.now() + seconds * 900 }; // renew at 90% of the lifetime
  }
}

interface TokenBody {
  token?: unknown;
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** Reads a token response within {@link MAX_TOKEN_BODY_BYTES}; every failure but an abort is an auth error. */
async function readTokenBody(
  response: RegistryResponse,
  what: string,
  request: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<TokenBody> {
  let data: Uint8Array;
  try {
    data = await readBody(response, { what, request, idleTimeoutMs: timeoutMs, signal }, MAX_TOKEN_BODY_BYTES);
  } catch (err) {
    if (signal?.aborted === true) throw signal.reason;
    if (isRegistryError(err, "ERR_REGISTRY_STATUS")) {
      throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: the token response is over the ${MAX_TOKEN_BODY_BYTES}-byte limit`, {
        request,
      });
    }
    throw err;
  }
  try {
    const body: unknown = JSON.parse(Buffer.from(data).toString("utf8"));
    return typeof body === "object" && body !== null ? body : {};
  } catch {
    return {};
  }
}

function basicHeader(credentials: RegistryCredentials | undefined): string | undefined {
  if (credentials === undefined || !("username" in credentials)) return undefined;
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}
