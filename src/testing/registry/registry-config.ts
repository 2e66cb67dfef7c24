import { randomBytes } from "node:crypto";
import { join } from "node:path";

/** How the test registry authenticates, as written into its configuration. */
export type RegistryAuthConfig =
  | { readonly kind: "none" }
  | { readonly kind: "htpasswd"; readonly path: string }
  | { readonly kind: "token"; readonly realm: string; readonly service: string; readonly issuer: string; readonly jwks: string };

/**
 * Renders the distribution registry's configuration for a test: filesystem storage under `dir`,
 * deletes enabled, loopback only, JSON logs (so the htpasswd password it provisions can be read),
 * no upload purging, no storage health check. JSON is valid YAML, which is what it reads.
 *
 * @internal
 */
export function renderRegistryConfig(dir: string, port: number, auth: RegistryAuthConfig): string {
  const config = {
    version: "0.1",
    log: { level: "info", formatter: "json", accesslog: { disabled: false } },
    storage: {
      filesystem: { rootdirectory: join(dir, "data") },
      delete: { enabled: true },
      maintenance: { uploadpurging: { enabled: false } },
    },
    http: { addr: `127.0.0.1:${port}`, secret: randomBytes(16).toString("hex"), draintimeout: "1s" },
    health: { storagedriver: { enabled: false } },
    ...(auth.kind === "htpasswd" && { auth: { htpasswd: { realm: "cocoon-test-registry", path: auth.path } } }),
    ...(auth.kind === "token" && {
      auth: { token: { realm: auth.realm, service: auth.service, issuer: auth.issuer, jwks: auth.jwks, signingalgorithms: ["ES256"] } },
    }),
  };
  return JSON.stringify(config, null, 2);
}
