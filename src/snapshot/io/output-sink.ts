import type { Writable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import { isKernelSink } from "./kernel-sink.js";

/**
 * Bytes a writer lets queue in the output before it waits for `drain`, above the output's own
 * high-water mark (64 KiB for files and sockets): while one write is in flight the output gathers
 * the pieces that follow and writes them in one `writev`. Waiting at the mark, a v1 pull into a
 * file made one thread-pool write per network piece (tens of KiB each).
 */
export const OUTPUT_BUFFERED = 2 << 20;

/**
 * Why `output` cannot receive a pull, or `undefined`: it is not a writable, or it is already
 * ended, destroyed or failed (every byte written to it would be lost, and the pull would have
 * fetched them for nothing).
 *
 * @example
 * ```ts
 * const out = createWriteStream("/tmp/x");
 * out.end();
 * outputProblem(out); // => "is already ended"
 * ```
 */
export function outputProblem(output: unknown): string | undefined {
  const o = output as Partial<Writable> | null | undefined;
  if (typeof o?.write !== "function" || typeof o.end !== "function" || typeof o.on !== "function") return "is not a writable stream";
  if (o.destroyed === true) return "is already destroyed";
  if (o.writableEnded === true) return "is already ended";
  if (o.errored !== null && o.errored !== undefined) return "has already failed";
  return undefined;
}

/** What a waiting writer waits for. */
type Until = "drain" | "acked" | "finish";

/**
 * A pull's view of its output: every write, the output's `error` event and `end()` are watched
 * from the first byte to `finish`, so that a failure at any point (an `EPIPE` from a consumer that
 * exits, `ENOSPC` at the trailer) rejects the pull with `ERR_SNAPSHOT_OUTPUT` instead of being
 * dropped or thrown as an uncaught exception; and a wait for a slow output ends at once on abort.
 *
 * @example
 * ```ts
 * const sink = new OutputSink(createWriteStream("/dev/full"), "write import tar", signal);
 * await sink.write(bytes);
 * await sink.end(); // rejects: ERR_SNAPSHOT_OUTPUT, cause ENOSPC
 * ```
 */
export class OutputSink {
  readonly #out: Writable;
  readonly #what: string;
  readonly #signal: AbortSignal | undefined;
  /** Whether buffers written may be freed once written (see {@link isKernelSink}). */
  readonly kernelSink: boolean;
  #failure: CocoonError | undefined;
  #finished = false;
  #sent = 0;
  #acked = 0;
  #until: Until | undefined;
  #settle: ((err?: unknown) => void) | undefined;

  /**
   * @param out - The output; its `error` event is listened to from now on.
   * @param what - What is written, for messages (`write import tar`).
   * @param signal - Ends any wait for the output with its reason.
   */
  constructor(out: Writable, what: string, signal?: AbortSignal) {
    this.#out = out;
    this.#what = what;
    this.#signal = signal;
    this.kernelSink = isKernelSink(out);
    out.on("error", this.#onError);
    out.on("drain", this.#onDrain);
    out.on("finish", this.#onFinish);
    out.on("close", this.#onClose);
  }

  /** Writes `chunk`, waiting for `drain` once {@link OUTPUT_BUFFERED} bytes are queued; rejects once the output has failed. */
  async write(chunk: Uint8Array): Promise<void> {
    this.#throwIfFailed();
    this.#sent++;
    if (this.#out.write(chunk, this.#onWritten) || this.#out.writableLength < OUTPUT_BUFFERED) return;
    await this.#wait("drain");
  }

  /** Runs `then` once the output has taken every byte written so far, when no error came with it. */
  afterWritten(then: () => void): void {
    if (this.#failure !== undefined || this.#out.destroyed) return;
    // Writes complete in order: the callback of an empty write runs after every earlier one's.
    this.#out.write(NOTHING, (err) => {
      if (!err) then();
    });
  }

  /** Resolves once the output has taken every byte written so far, without ending it. */
  async flush(): Promise<void> {
    this.#throwIfFailed();
    if (this.#acked < this.#sent) await this.#wait("acked");
    this.#detach();
  }

  /** Ends the output and resolves on its `finish`: every byte was taken and its end succeeded. */
  async end(): Promise<void> {
    this.#throwIfFailed();
    const finished = this.#wait("finish");
    this.#out.end();
    await finished;
    this.#detach();
  }

  /** Destroys the output after a failure; its later errors stay caught, they are that failure's. */
  destroy(): void {
    this.#failure ??= this.#error("the pull failed");
    this.#out.destroy();
  }

  #detach(): void {
    this.#out.off("error", this.#onError);
    this.#out.off("drain", this.#onDrain);
    this.#out.off("finish", this.#onFinish);
    this.#out.off("close", this.#onClose);
  }

  #error(why: string, cause?: unknown): CocoonError {
    return new CocoonError("ERR_SNAPSHOT_OUTPUT", `${this.#what}: ${why}`, cause === undefined ? undefined : { cause });
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#out.destroyed) throw (this.#failure = this.#error("the output was destroyed before it took every byte"));
  }

  #wait(until: Until): Promise<void> {
    const signal = this.#signal;
    signal?.throwIfAborted();
    if (until === "finish" && this.#finished) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => settle(signal?.reason);
      const settle = (err?: unknown): void => {
        this.#until = undefined;
        this.#settle = undefined;
        signal?.removeEventListener("abort", onAbort);
        if (err === undefined) resolve();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, whatever it is
        else reject(err);
      };
      this.#until = until;
      this.#settle = settle;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #fail(err: CocoonError): void {
    this.#failure ??= err;
    this.#settle?.(this.#failure);
  }

  readonly #onError = (err: Error): void => {
    this.#fail(this.#error(`the output failed: ${messageOf(err)}`, err));
  };

  readonly #onWritten = (err?: Error | null): void => {
    if (err) {
      this.#fail(this.#error(`the output failed: ${messageOf(err)}`, err));
      return;
    }
    this.#acked++;
    if (this.#until === "acked" && this.#acked === this.#sent) this.#settle?.();
  };

  readonly #onDrain = (): void => {
    if (this.#until === "drain") this.#settle?.();
  };

  readonly #onFinish = (): void => {
    this.#finished = true;
    if (this.#until === "finish") this.#settle?.();
  };

  readonly #onClose = (): void => {
    if (!this.#finished) this.#fail(this.#error("the output closed before it took every byte"));
  };
}

const NOTHING = new Uint8Array(0);
