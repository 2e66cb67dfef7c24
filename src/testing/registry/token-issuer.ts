import { generateKeyPairSync, randomUUID, sign, timingSafeEqual, type KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A user of the test token issuer and the actions it may take on every repository. */
export interface TokenUser {
  /** The password (or token) it authenticates with. */
  readonly password: string;
  /** Actions granted (`pull`, `push`, `delete`, or `*`); default all. An empty list is refused with 403. */
  readonly actions?: readonly string[];
}

/** A token issuer; see {@link createTokenIssuer}. */
export interface TokenIssuer {
  /** The JSON Web Key Set the registry trusts (`auth.token.jwks`). */
  readonly jwks: string;
  /** Token requests answered so far (granted or not). */
  readonly requests: number;
  /** Answers one token request. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** Names written into every token; the registry's configuration must use the same. */
export const TOKEN_SERVICE = "cocoon-test-registry";
/** The `iss` claim of every token. */
export const TOKEN_ISSUER = "cocoon-test-token-issuer";
const KEY_ID = "cocoon-test";
const LIFETIME_S = 300;

/**
 * A Docker-token-spec issuer signing ES256 JWTs with a key generated for this run, as
 * distribution's `auth.token` expects: `GET /token?service&scope` with basic credentials answers
 * `{token, expires_in}` granting the requested actions the user holds; wrong credentials get 401,
 * a user with no actions 403. It has no server of its own: the registry front serves it.
 *
 * @internal
 */
export function createTokenIssuer(users: Readonly<Record<string, TokenUser>>): TokenIssuer {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: KEY_ID, alg: "ES256", use: "sig" }] });
  let requests = 0;
  return {
    jwks,
    get requests() {
      return requests;
    },
    handle: (req, res) => {
      requests++;
      answer(req, res, users, privateKey);
    },
  };
}

function answer(req: IncomingMessage, res: ServerResponse, users: Readonly<Record<string, TokenUser>>, key: KeyObject): void {
  const url = new URL(req.url ?? "/", "http://issuer");
  const [username, password] = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64")
    .toString()
    .split(/:(.*)/s);
  const user = username === undefined ? undefined : users[username];
  if (user === undefined || !sameText(user.password, password ?? "")) {
    reply(res, 401, { details: "bad credentials" });
    return;
  }
  const granted = user.actions ?? ["*"];
  if (granted.length === 0) {
    reply(res, 403, { details: `${username} may not access this registry` });
    return;
  }
  const access = url.searchParams.getAll("scope").flatMap((scope) => {
    const [type, name, actions] = [
      scope.slice(0, scope.indexOf(":")),
      scope.slice(scope.indexOf(":") + 1, scope.lastIndexOf(":")),
      scope.slice(scope.lastIndexOf(":") + 1),
    ];
    const allowed = actions.split(",").filter((a) => granted.includes("*") || granted.includes(a));
    return type === "repository" ? [{ type, name, actions: allowed }] : [];
  });
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: TOKEN_ISSUER,
    sub: username,
    aud: url.searchParams.get("service") ?? "",
    exp: now + LIFETIME_S,
    nbf: now - 1,
    iat: now,
    jti: randomUUID(),
    access,
  };
  reply(res, 200, { token: signJWT(claims, key), expires_in: LIFETIME_S, issued_at: new Date(now * 1000).toISOString() });
}

function signJWT(claims: object, key: KeyObject): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "ES256", typ: "JWT", kid: KEY_ID })}.${part(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}

function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
