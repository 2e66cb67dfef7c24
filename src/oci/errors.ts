import { CocoonError, isCocoonError, type RegistryErrorCode } from "../errors.js";

export type { RegistryErrorCode } from "../errors.js";

/** What a {@link RegistryError} knows about the request that failed. */
export interface RegistryErrorDetails {
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The request, as `METHOD url` (no credentials), when one was sent. */
  readonly request?: string;
  /** The underlying error (a socket error, the body's hash mismatch, ...). */
  readonly cause?: unknown;
}

/**
 * A registry call failed; `code` says how, so callers never match messages.
 *
 * Absent (`ERR_REGISTRY_NOT_FOUND`) is distinct from every failure: only a 404 means the
 * manifest or blob is not there, while 401, 403, a broken connection or a timeout mean
 * "unknown", and an operator must fail closed on those.
 *
 * @example
 * ```ts
 * try {
 *   await registry.getManifest("vk-demo-sandbox-0", "hibernate");
 * } catch (err) {
 *   if (isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")) return freshBoot();
 *   throw err; // unauthorized, unreachable, timed out: do not guess
 * }
 * ```
 */
export class RegistryError extends CocoonError {
  override name = "RegistryError";
  declare readonly code: RegistryErrorCode;
  /** HTTP status of the answer, or `undefined` when none arrived. */
  readonly status: number | undefined;
  /** The request that failed, as `METHOD url`, or `undefined`. */
  readonly request: string | undefined;

  /**
   * @param code - How the call failed.
   * @param message - Text naming the repository, reference or digest.
   * @param details - Status, request and cause.
   */
  constructor(code: RegistryErrorCode, message: string, details: RegistryErrorDetails = {}) {
    super(code, message, "cause" in details ? { cause: details.cause } : undefined);
    this.status = details.status;
    this.request = details.request;
  }
}

/**
 * Reports whether `err` is a registry failure of this library, optionally with the given code.
 *
 * Like {@link isCocoonError} it works across duplicate installs of the package.
 *
 * @example
 * ```ts
 * if (isRegistryError(err, "ERR_REGISTRY_UNAUTHORIZED")) console.error("check the registry credentials");
 * ```
 */
export function isRegistryError(err: unknown, code?: RegistryErrorCode): err is RegistryError {
  if (!isCocoonError(err) || !err.code.startsWith("ERR_REGISTRY_")) return false;
  return code === undefined || err.code === code;
}

/** Maps an HTTP status to the code of its failure. @internal */
export function codeForStatus(status: number): RegistryErrorCode {
  switch (status) {
    case 401:
      return "ERR_REGISTRY_UNAUTHORIZED";
    case 403:
      return "ERR_REGISTRY_FORBIDDEN";
    case 404:
      return "ERR_REGISTRY_NOT_FOUND";
    default:
      return "ERR_REGISTRY_STATUS";
  }
}
