// Environment variable helpers (Go's `EnvOrDefault` and `EnvBool`).
import { parseBool } from "../internal/go/index.js";

/** A read-only view of environment variables, like `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Returns the environment variable `key`, or `fallback` when it is unset or empty (Go's `cmp.Or`).
 *
 * @param key - Variable name.
 * @param fallback - Value used when the variable is unset or `""`.
 * @param env - Where to read from; defaults to `process.env`.
 * @example
 * ```ts
 * const pool = envOrDefault("NODE_POOL", "default"); // "" also gives "default"
 * ```
 */
export function envOrDefault(key: string, fallback: string, env: Env = process.env): string {
  return env[key] || fallback;
}

/**
 * Returns the environment variable `key` parsed as Go's `strconv.ParseBool`, or `fallback`.
 *
 * Only `1 t T TRUE true True` are true and `0 f F FALSE false False` are false; anything
 * else (`yes`, `on`, `tRUE`, `" true"`, `""`, unset) gives `fallback`.
 *
 * @param key - Variable name.
 * @param fallback - Value used when the variable is unset or not one of the spellings above.
 * @param env - Where to read from; defaults to `process.env`.
 * @example
 * ```ts
 * const dryRun = envBool("DRY_RUN", false); // DRY_RUN=T gives true, DRY_RUN=yes gives false
 * ```
 */
export function envBool(key: string, fallback: boolean, env: Env = process.env): boolean {
  return parseBool(env[key] ?? "") ?? fallback;
}
