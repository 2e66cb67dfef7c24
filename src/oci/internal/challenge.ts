/** One `WWW-Authenticate` challenge: the scheme and its parameters (names lower-cased). */
export interface AuthChallenge {
  /** `basic` or `bearer` (lower-cased); anything else is passed through. */
  readonly scheme: string;
  /** `realm`, `service`, `scope`, `error`, ... */
  readonly params: Readonly<Record<string, string>>;
}

const PARAM = /\s*([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/y;

/**
 * Parses the first challenge of a `WWW-Authenticate` header (RFC 7235 auth-params, quoted or not).
 *
 * Never throws; returns `undefined` for a missing or empty header.
 *
 * @example
 * ```ts
 * parseChallenge('Bearer realm="https://auth.example/token",service="registry",scope="repository:vm:pull"');
 * // => { scheme: "bearer", params: { realm: "https://auth.example/token", service: "registry", scope: "repository:vm:pull" } }
 * ```
 */
export function parseChallenge(header: string | null | undefined): AuthChallenge | undefined {
  if (typeof header !== "string") return undefined;
  const match = /^\s*([A-Za-z][\w.+-]*)(?:\s+|$)/.exec(header);
  if (!match?.[1]) return undefined;
  const params: Record<string, string> = {};
  PARAM.lastIndex = match[0].length;
  for (let m = PARAM.exec(header); m !== null && m[0] !== ""; m = PARAM.exec(header)) {
    const name = (m[1] ?? "").toLowerCase();
    params[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? "");
  }
  return { scheme: match[1].toLowerCase(), params };
}
