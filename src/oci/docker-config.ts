import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { CocoonError } from "../errors.js";
import type { CredentialSource, RegistryCredentials } from "./credentials.js";
import { runCredentialHelper } from "./internal/credential-helper.js";

/** Options of {@link dockerConfigCredentials}. */
export interface DockerConfigOptions {
  /** The `config.json` to read; default `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`. */
  readonly path?: string;
  /** Environment to read `DOCKER_CONFIG` and `HOME` from; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Deadline of a credential helper run; default 10 s. */
  readonly helperTimeoutMs?: number;
}

interface DockerConfig {
  auths?: Record<string, { auth?: string; username?: string; password?: string; identitytoken?: string }>;
  credHelpers?: Record<string, string>;
  credsStore?: string;
}

/**
 * Credentials from a docker `config.json`, as `docker login` leaves them (Go's `authn.DefaultKeychain`):
 * `credHelpers[host]` first (run through the helper binary protocol), then `auths[host]` (`auth`
 * as base64 `user:password`, `username`/`password`, or `identitytoken`), then `credsStore`.
 * `auths` keys may carry a scheme and path (`https://index.docker.io/v1/`); Docker Hub is looked
 * up under its historical key. A missing file means anonymous.
 *
 * @example
 * ```ts
 * const registry = new OCIRegistry("ghcr.io/acme/snapshots", { credentials: dockerConfigCredentials() });
 * ```
 */
export function dockerConfigCredentials(options: DockerConfigOptions = {}): CredentialSource {
  const env = options.env ?? process.env;
  const path = options.path ?? join(env.DOCKER_CONFIG ?? join(env.HOME ?? homedir(), ".docker"), "config.json");
  const timeoutMs = options.helperTimeoutMs ?? 10_000;
  return async (registry, signal) => {
    const config = await readConfig(path);
    const server = registry === "index.docker.io" ? "https://index.docker.io/v1/" : registry;
    const helper = config.credHelpers?.[registry];
    if (helper !== undefined) return runCredentialHelper(helper, server, timeoutMs, signal);
    const entry = Object.entries(config.auths ?? {}).find(([key]) => hostOf(key) === registry)?.[1];
    if (entry !== undefined) return fromEntry(entry, path, registry);
    return config.credsStore === undefined ? undefined : runCredentialHelper(config.credsStore, server, timeoutMs, signal);
  };
}

async function readConfig(path: string): Promise<DockerConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch (err) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** `https://index.docker.io/v1/` → `index.docker.io`; `ghcr.io` → `ghcr.io`. */
function hostOf(key: string): string {
  const host = key.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/")[0] ?? "";
  return host === "docker.io" || host === "registry-1.docker.io" ? "index.docker.io" : host;
}

function fromEntry(entry: NonNullable<DockerConfig["auths"]>[string], path: string, registry: string): RegistryCredentials | undefined {
  if (typeof entry.identitytoken === "string" && entry.identitytoken !== "") return { identityToken: entry.identitytoken };
  if (typeof entry.auth === "string" && entry.auth !== "") {
    const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0)
      throw new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path}: auths["${registry}"].auth is not base64 "user:password"`);
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (typeof entry.username === "string" && typeof entry.password === "string")
    return { username: entry.username, password: entry.password };
  return undefined;
}
