/** Credentials for one registry: a user name and password (or token), or an OAuth2 refresh token. */
export type RegistryCredentials = { readonly username: string; readonly password: string } | { readonly identityToken: string };

/**
 * Finds the credentials for a registry host (`host[:port]`), or `undefined` for anonymous access.
 *
 * Called at most once per host per {@link OCIRegistry} and only when the registry asks for
 * authentication; a rejection fails the call with that error.
 */
export type CredentialSource = (registry: string, signal?: AbortSignal) => Promise<RegistryCredentials | undefined>;

/**
 * A {@link CredentialSource} over a fixed map of `host[:port]` → credentials.
 *
 * @example
 * ```ts
 * const registry = new OCIRegistry("ghcr.io/acme/snapshots", {
 *   credentials: staticCredentials({ "ghcr.io": { username: "bot", password: process.env.GHCR_TOKEN ?? "" } }),
 * });
 * ```
 */
export function staticCredentials(byHost: Readonly<Record<string, RegistryCredentials>>): CredentialSource {
  return (registry) => Promise.resolve(Object.hasOwn(byHost, registry) ? byHost[registry] : undefined);
}
