/**
 * Runs at most `limit` chunk tasks at once; the first failure stops new work and is the one
 * reported. A task that no longer needs its chunk's buffers (its frame is written) may hand its
 * slot to the next chunk and go on to upload, at most `limit` of them uploading at once: the next
 * chunk compresses while the frame is on the wire.
 */
export class UploadPool {
  readonly #slots = new Set<Promise<void>>();
  readonly #all = new Set<Promise<void>>();
  readonly #uploads = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether an upload has failed. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Waits for a free slot, then starts `task`. The task may call `handOver` once: its slot goes to
   * the next task, and it resumes when fewer than `limit` handed-over tasks are running.
   */
  async start(task: (handOver: () => Promise<void>) => Promise<void>): Promise<void> {
    while (this.#slots.size >= this.#limit) await Promise.race(this.#slots);
    if (this.#failure) return;
    let settle = (): void => undefined;
    const slot = new Promise<void>((resolve) => (settle = resolve));
    const handOver = async (): Promise<void> => {
      if (!this.#slots.delete(slot)) return;
      settle();
      while (this.#uploads.size >= this.#limit) await Promise.race(this.#uploads);
      this.#uploads.add(p);
    };
    const p: Promise<void> = task(handOver)
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => {
        this.#slots.delete(slot);
        settle();
        this.#uploads.delete(p);
        this.#all.delete(p);
      });
    this.#slots.add(slot);
    this.#all.add(p);
  }

  /** Waits for every task; throws the first failure. */
  async wait(): Promise<void> {
    while (this.#all.size > 0) await Promise.allSettled([...this.#all]);
    if (this.#failure) throw this.#failure.error;
  }
}
