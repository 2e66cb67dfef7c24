/**
 * A stream the snapshot codecs refuse: Go's `io.ErrUnexpectedEOF` or one of `archive/tar`'s
 * errors, with Go's text as the message. A class of its own so callers tell it from the source's
 * own failures by type, never by text.
 */
export class StreamRefusal extends Error {}

/** Go's `io.ErrUnexpectedEOF` text. */
export const UNEXPECTED_EOF = "unexpected EOF";

/** Go's `io.ErrUnexpectedEOF`: the stream ended inside something it promised. */
export const unexpectedEOF = (): StreamRefusal => new StreamRefusal(UNEXPECTED_EOF);
