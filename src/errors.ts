/**
 * Stable error codes; switch on `err.code` instead of on messages.
 *
 * - `ERR_INVALID_QUANTITY`: a value is not a Kubernetes quantity.
 * - `ERR_INVALID_INTEGER`: a number cannot be written as a Go `int64`/`int32` (not an integer, unsafe, out of range).
 * - `ERR_INVALID_ANNOTATION_DELTA`: an annotation delta is empty, missing or holds a non-string value.
 * - `ERR_INVALID_ARGUMENT`: any other argument outside its documented domain.
 * - `ERR_INVALID_OBJECT`: the API server refused an object we sent; today only `installCRDs`, when a CRD's
 *   `NamesAccepted` condition is `False` (the message carries the server's reason and message).
 * - `ERR_UNEXPECTED_OBJECT`: the API server returned a CocoonSet or CocoonHibernation (or a list of them) that
 *   does not parse with its zod schema, or answered a request for one object (a patch, a get, a delete) with
 *   something that is not that object (not a JSON object; another kind, apiVersion, namespace, name or uid);
 *   the message names the object and the path of the first issue or differing field.
 * - `ERR_KUBECONFIG`: no usable kubeconfig was found.
 * - `ERR_CROSS_ORIGIN_REDIRECT`: the API server redirected a request to another origin (scheme, host or port);
 *   nothing was sent there, neither the bearer token nor the client certificate.
 * - `ERR_CONTROL_PLANE`: a test control plane could not be built, started or stopped.
 * - `ERR_AUDIT_LOG`: a test control plane's audit log is off, larger than the read cap, or holds a line that is not an
 *   audit event.
 * - `ERR_TEST_REGISTRY`: a test registry (`startRegistry`) could not be built, started or stopped.
 * - `ERR_BINARY_DOWNLOAD`: prebuilt test binaries could not be downloaded (HTTP status, checksum, timeout, archive).
 * - `ERR_NO_NODE_IP`: no non-loopback IPv4 address was found on this host.
 * - `ERR_ADMISSION_DECODE`: an admission review request body could not be decoded.
 * - `ERR_INVALID_REFERENCE`: a registry base, repository, tag or digest cannot name anything in a registry.
 * - `ERR_REGISTRY_NOT_FOUND`: the registry holds no such manifest or blob (HTTP 404).
 * - `ERR_REGISTRY_UNAUTHORIZED`: the registry refused the credentials, or none were given (HTTP 401).
 * - `ERR_REGISTRY_FORBIDDEN`: the credentials are valid but may not do this (HTTP 403).
 * - `ERR_REGISTRY_STATUS`: the registry answered with any other unexpected HTTP status.
 * - `ERR_REGISTRY_TRANSPORT`: the registry could not be reached, or the connection broke mid-body.
 * - `ERR_REGISTRY_TIMEOUT`: the registry did not answer within the call's timeout.
 * - `ERR_REGISTRY_DIGEST_MISMATCH`: a blob's bytes do not hash to its digest.
 * - `ERR_REGISTRY_SIZE_MISMATCH`: a blob is shorter or longer than its declared size.
 * - `ERR_SNAPSHOT_FORMAT`: a snapshot export stream, import tar (`restoreSnapshot`), manifest or config is malformed
 *   or not a snapshot.
 * - `ERR_SNAPSHOT_INTEGRITY`: a blob or a reconstructed file differs from its digest or size.
 * - `ERR_SNAPSHOT_TRANSFER`: a registry call made by a snapshot push or pull failed (the cause says why).
 * - `ERR_WATCH_STREAM`: a typed watch's list or watch answer broke the protocol: a line that is not JSON, an
 *   event that does not parse, a line past the cap, a watch kept open past its timeout, a repeated `continue`.
 * - `ERR_KUBE_STATUS`: the API server answered a request of the `./kubelet` path (`KubeRequester`) with a status
 *   other than 2xx; `statusCode(err)`, `isNotFound(err)` and friends read it, and its `body` holds the `Status`.
 * - `ERR_ANSWER_TOO_LARGE`: an API server's answer (a list, a write's answer) passed its byte cap; it was dropped
 *   unread past the cap.
 * - `ERR_SNAPSHOT_OUTPUT`: the output of a pull or cloud-image stream failed, closed or was destroyed before it took
 *   every byte and finished (a consumer that exits: `EPIPE`; a full disk: `ENOSPC`); the output's error is the cause.
 *   For `restoreSnapshot`, a file it could not create or write (one already there: `EEXIST`), named in the message.
 */
export type CocoonErrorCode =
  | "ERR_INVALID_QUANTITY"
  | "ERR_INVALID_INTEGER"
  | "ERR_INVALID_ANNOTATION_DELTA"
  | "ERR_INVALID_ARGUMENT"
  | "ERR_INVALID_OBJECT"
  | "ERR_UNEXPECTED_OBJECT"
  | "ERR_KUBECONFIG"
  | "ERR_CROSS_ORIGIN_REDIRECT"
  | "ERR_CONTROL_PLANE"
  | "ERR_AUDIT_LOG"
  | "ERR_TEST_REGISTRY"
  | "ERR_BINARY_DOWNLOAD"
  | "ERR_NO_NODE_IP"
  | "ERR_ADMISSION_DECODE"
  | "ERR_INVALID_REFERENCE"
  | "ERR_SNAPSHOT_FORMAT"
  | "ERR_SNAPSHOT_INTEGRITY"
  | "ERR_SNAPSHOT_TRANSFER"
  | "ERR_WATCH_STREAM"
  | "ERR_SNAPSHOT_OUTPUT"
  | "ERR_KUBE_STATUS"
  | "ERR_ANSWER_TOO_LARGE"
  | RegistryErrorCode;

/** The codes of {@link CocoonErrorCode} that a registry call fails with; see `isRegistryError` in `./oci`. */
export type RegistryErrorCode =
  | "ERR_REGISTRY_NOT_FOUND"
  | "ERR_REGISTRY_UNAUTHORIZED"
  | "ERR_REGISTRY_FORBIDDEN"
  | "ERR_REGISTRY_STATUS"
  | "ERR_REGISTRY_TRANSPORT"
  | "ERR_REGISTRY_TIMEOUT"
  | "ERR_REGISTRY_DIGEST_MISMATCH"
  | "ERR_REGISTRY_SIZE_MISMATCH";

const BRAND = Symbol.for("@cocoonstack/cocoon-common/error");

/**
 * Base class of every error this library throws.
 *
 * Check it with {@link isCocoonError} rather than `instanceof`, which fails when two copies
 * of the package are installed.
 *
 * @example
 * ```ts
 * try {
 *   cocoonSetGenerationAnnotations(1.5);
 * } catch (err) {
 *   if (isCocoonError(err)) console.error(err.code, err.message);
 *   // => ERR_INVALID_INTEGER cocoonset generation 1.5 is not an integer
 * }
 * ```
 */
export class CocoonError extends Error {
  override name = "CocoonError";
  /** Marks errors of every copy of this package; see {@link isCocoonError}. */
  readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: CocoonErrorCode;

  /**
   * @param code - Stable code of the failure.
   * @param message - Human-readable text naming the offending field or value.
   * @param options - Standard error options; `cause` keeps the underlying error.
   */
  constructor(code: CocoonErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Reports whether `err` was thrown by this library, optionally with the given code.
 *
 * Works across duplicate installs of the package because it checks a global symbol brand
 * and the code, not the prototype chain. Never throws, on any value (a `catch` block can call it
 * on whatever was thrown): a Proxy whose traps throw is not a `CocoonError`.
 *
 * @example
 * ```ts
 * try {
 *   quantityString("1K");
 * } catch (err) {
 *   if (isCocoonError(err, "ERR_INVALID_QUANTITY")) console.error(err.message);
 * }
 * ```
 */
export function isCocoonError(err: unknown, code?: CocoonErrorCode): err is CocoonError {
  if (typeof err !== "object" || err === null) return false;
  try {
    if ((err as { [BRAND]?: unknown })[BRAND] !== true) return false;
    return code === undefined || (err as { code?: unknown }).code === code;
  } catch {
    return false; // a Proxy whose traps throw, or a revoked one: not ours
  }
}
