import { RegistryError } from "../errors.js";
import type { CredentialSource, RegistryCredentials } from "../credentials.js";
import type { AuthChallenge } from "./challenge.js";
import { statusError, transportError } from "./registry-http-error.js";
import { schemeFor } from "./scheme.js";

/** What the {@link Authorizer} needs from its client. */
export interface AuthorizerOptions {
  readonly credentials: CredentialSource | undefined;
  readonly insecure: readonly string[];
  readonly fetch: typeof fetch;
}

interface CachedToken {
  readonly header: string;
  readonly expiresAt: number;
}

/**
 * Answers registry auth challenges and remembers the answers: the scheme each registry asked for,
 * its credentials (looked up once), and bearer tokens per registry and scope until they expire.
 */
export class Authorizer {
  readonly #options: AuthorizerOptions;
  readonly #challenges = new Map<string, AuthChallenge>();
  readonly #tokens = new Map<string, CachedToken>();
  readonly #credentials = new Map<string, Promise<RegistryCredentials | undefined>>();
  /** Token endpoint requests sent so far. */
  tokenRequests = 0;

  constructor(options: AuthorizerOptions) {
    this.#options = options;
  }

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
    const token = await this.#fetchToken(challenge, challenge.params.scope ?? scope, credentials, signal);
    this.#tokens.set(`${registry} ${scope}`, token);
    return token.header;
  }

  #credentialsFor(registry: string, signal: AbortSignal | undefined): Promise<RegistryCredentials | undefined> {
    let found = this.#credentials.get(registry);
    if (found === undefined) {
      found = this.#options.credentials?.(registry, signal) ?? Promise.resolve(undefined);
      this.#credentials.set(registry, found);
      found.catch(() => this.#credentials.delete(registry));
    }
    return found;
  }

  async #fetchToken(
    challenge: AuthChallenge,
    scope: string,
    credentials: RegistryCredentials | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CachedToken> {
    const realm = new URL(challenge.params.realm ?? "");
    const what = `get token for ${scope}`;
    if (realm.protocol === "http:" && schemeFor(realm.host, this.#options.insecure) !== "http") {
      throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: refusing the plain-HTTP token realm ${realm.href}`);
    }
    const form = new URLSearchParams({ service: challenge.params.service ?? "", scope });
    let init: RequestInit;
    if (credentials !== undefined && "identityToken" in credentials) {
      form.set("grant_type", "refresh_token");
      form.set("refresh_token", credentials.identityToken);
      form.set("client_id", "cocoon-common");
      init = { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } };
    } else {
      for (const [k, v] of form) realm.searchParams.set(k, v);
      const auth = basicHeader(credentials);
      init = { method: "GET", headers: auth === undefined ? {} : { authorization: auth } };
    }
    this.tokenRequests++;
    const request = `${init.method ?? "GET"} ${realm.origin}${realm.pathname}`;
    const response = await this.#options.fetch(realm, { ...init, ...(signal && { signal }) }).catch((err: unknown) => {
      throw signal?.aborted === true ? signal.reason : transportError(what, request, err);
    });
    if (!response.ok) throw await statusError(what, request, response);
    const body = (await response.json().catch(() => ({}))) as { token?: unknown; access_token?: unknown; expires_in?: unknown };
    const token = typeof body.token === "string" && body.token !== "" ? body.token : body.access_token;
    if (typeof token !== "string" || token === "")
      throw new RegistryError("ERR_REGISTRY_UNAUTHORIZED", `${what}: the token endpoint sent no token`, { request });
    const seconds = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 60;
    return { header: `Bearer ${token}`, expiresAt: Date.now() + seconds * 900 }; // renew at 90% of the lifetime
  }
}

function basicHeader(credentials: RegistryCredentials | undefined): string | undefined {
  if (credentials === undefined || !("username" in credentials)) return undefined;
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}
