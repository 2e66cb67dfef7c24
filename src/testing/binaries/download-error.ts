import { CocoonError } from "../../errors.js";

/** Why a download of prebuilt binaries failed; see {@link BinaryDownloadError}. */
export const DownloadFailure = {
  /** The server answered 404: the mirror has no such file. */
  NotFound: "not-found",
  /** The server answered another unexpected HTTP status. */
  Status: "status",
  /** The archive does not hash to its published sha512, or the checksum file is malformed. */
  Checksum: "checksum",
  /** No bytes arrived within the timeout. */
  Timeout: "timeout",
  /** The server could not be reached, or the connection broke. */
  Transport: "transport",
  /** The archive could not be unpacked, or it lacks a binary. */
  Archive: "archive",
} as const;
/** One of the {@link DownloadFailure} values. */
export type DownloadFailure = (typeof DownloadFailure)[keyof typeof DownloadFailure];

/**
 * Prebuilt test binaries could not be downloaded; `failure` says why and `url` names the file.
 *
 * @example
 * ```ts
 * if (isCocoonError(err, "ERR_BINARY_DOWNLOAD")) console.error((err as BinaryDownloadError).failure);
 * ```
 */
export class BinaryDownloadError extends CocoonError {
  override name = "BinaryDownloadError";
  /** Why the download failed. */
  readonly failure: DownloadFailure;
  /** The URL that failed. */
  readonly url: string;

  /**
   * @param failure - Why the download failed.
   * @param url - The URL that failed.
   * @param message - Human-readable text naming the file and the URL.
   * @param options - Standard error options; `cause` keeps the underlying error.
   */
  constructor(failure: DownloadFailure, url: string, message: string, options?: ErrorOptions) {
    super("ERR_BINARY_DOWNLOAD", message, options);
    this.failure = failure;
    this.url = url;
  }
}
