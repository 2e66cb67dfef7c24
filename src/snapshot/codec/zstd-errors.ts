/** Go's klauspost error texts, so error messages read the same from both pulls. */
export const ZstdMessage = {
  Magic: "invalid input: magic number mismatch",
  Window: "window size exceeded",
  TooLarge: "decompressed size exceeds configured limit",
} as const;

/** Thrown with Go's text when bytes start no frame. */
export class MagicError extends Error {
  constructor() {
    super(ZstdMessage.Magic);
  }
}

/** zlib's failures under Go's texts where Go has one; other decoder errors keep zstd's own text. */
export function goZstdError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ZSTD_error_prefix_unknown") return new Error(ZstdMessage.Magic, { cause: err });
  if (code === "ZSTD_error_frameParameter_windowTooLarge") return new Error(ZstdMessage.Window, { cause: err });
  if (code === "ERR_BUFFER_TOO_LARGE") return new Error(ZstdMessage.TooLarge, { cause: err });
  return err;
}
