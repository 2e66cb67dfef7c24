/**
 * The message of a thrown value: an `Error`'s `message`, anything else as `String` renders it.
 *
 * @internal
 */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
