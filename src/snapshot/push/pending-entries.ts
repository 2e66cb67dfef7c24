import { CocoonError } from "../../errors.js";
import { ENVELOPE_NAME } from "../codec/envelope.js";
import { ByteReader, type EntryBody } from "../io/byte-reader.js";
import type { TarEntry } from "../codec/tar-reader.js";

/**
 * Files read before `snapshot.json`, held in memory so that nothing is uploaded for an export
 * that turns out to have no envelope (Go uploads them first and leaves orphan blobs).
 */
export class PendingEntries {
  readonly #entries: { entry: TarEntry; parts: Uint8Array[] }[] = [];
  #bytes = 0;
  readonly #budget: number;

  /** @param budgetBytes - The most bytes held before the envelope arrives. */
  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** Buffers one entry's body; refuses to hold more than the budget. */
  async add(entry: TarEntry, body: AsyncIterable<Uint8Array>, bufferError: (err: unknown) => unknown): Promise<void> {
    this.#bytes += entry.size;
    if (this.#bytes > this.#budget) {
      throw new CocoonError(
        "ERR_SNAPSHOT_FORMAT",
        `snapshot push: ${this.#bytes} bytes of files precede ${ENVELOPE_NAME}, more than the ${this.#budget >> 20} MiB memory budget`,
      );
    }
    const parts: Uint8Array[] = [];
    try {
      for await (const p of body) parts.push(p);
    } catch (err) {
      throw bufferError(err);
    }
    this.#entries.push({ entry, parts });
  }

  /** Hands the held entries back in order, each with a replayable body, and forgets them. */
  *drain(): Generator<{ entry: TarEntry; body: EntryBody }> {
    for (const { entry, parts } of this.#entries.splice(0)) {
      // eslint-disable-next-line @typescript-eslint/require-await -- an array as the AsyncIterable a reader takes
      const held = (async function* () {
        yield* parts;
      })();
      yield { entry, body: new ByteReader(held).body(entry.size) };
    }
    this.#bytes = 0;
  }
}
