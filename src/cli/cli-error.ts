/**
 * Why a command could not run: `usage` (bad arguments; the command's help follows the message)
 * or `input` (a file that cannot be read or parsed). Both exit with status 2.
 */
export type CliErrorCode = "ERR_CLI_USAGE" | "ERR_CLI_INPUT";

/**
 * A failure that ends a command with exit status 2 and one message on stderr.
 *
 * Thrown inside `src/cli` only and caught by `run` (run.ts); it never reaches library users.
 */
export class CliError extends Error {
  override name = "CliError";
  /** What went wrong: bad arguments or unreadable input. */
  readonly code: CliErrorCode;

  /**
   * @param code - `ERR_CLI_USAGE` or `ERR_CLI_INPUT`.
   * @param message - One line naming the argument or file at fault.
   * @param options - Standard error options; `cause` keeps the underlying error.
   */
  constructor(code: CliErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Creates the {@link CliError} for bad arguments. */
export function usageError(message: string): CliError {
  return new CliError("ERR_CLI_USAGE", message);
}
