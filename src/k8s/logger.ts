/**
 * Where a helper reports a failure it survives ({@link releaseSeat}) or a request it refuses
 * ({@link admissionHandler}). `console` fits as it is, and so does any logger with a message-first
 * `error` (winston). The message
 * names the error on its own, so a logger that drops the fields still says what went wrong;
 * pino and bunyan take the fields first: `{ error: (message, fields) => log.error(fields, message) }`.
 *
 * @example
 * ```ts
 * await releaseSeat(clients, pod, { logger: console });
 * await releaseSeat(clients, pod, { logger: { error: (message, fields) => pinoLogger.error(fields, message) } });
 * http.createServer(admissionHandler(handler, { logger: console }));
 * ```
 */
export interface Logger {
  /** Logs `message` at error level; `fields` holds the error as `err` and the object it concerns. */
  error(message: string, fields?: Record<string, unknown>): void;
  /** Logs `message` at warning level (an admission review that cannot be decoded); optional. */
  warn?(message: string, fields?: Record<string, unknown>): void;
}
