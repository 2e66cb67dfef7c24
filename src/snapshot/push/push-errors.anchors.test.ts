import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { readGoJSON } from "../../internal/go-vectors.test-util.js";
import { callKey, collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "./push.js";

interface PushErrorCase {
  id: string;
  exportTarBase64: string;
  options: { name: string; tag: string; zstdLevel: number; chunkSizeMiB: number; concurrency: number; memoryBudgetMiB: number };
  error: string | null;
  callsBeforeResult:
    { op: string; name: string; digest?: string; size?: number; exists?: boolean; tag?: string; contentType?: string }[] | null;
  configJson?: string;
  manifestJson?: string;
  pullError?: string;
}

const CLOCK = Date.parse("2026-07-24T00:00:00Z");
const cases = readGoJSON<{ cases: PushErrorCase[] }>("registry/push-errors.json").cases;

/** Where the TS push is stricter on purpose (docs/differences-from-go.md): a sparse size Go's pull would refuse. */
const REFUSED: Readonly<Record<string, string>> = {
  "sparse-size-zero": "sparse entry memory-ranges has COCOON.sparse.size 0, want a positive size",
  "sparse-size-negative": "sparse entry memory-ranges has COCOON.sparse.size -5, want a positive size",
};
/** Go uploads every file before it notices the missing envelope; the TS push holds them and uploads nothing. */
const NOTHING_UPLOADED = new Set([...Object.keys(REFUSED), "missing-snapshot-json"]);
/** Cases whose Go error ends in an `encoding/json` text: only the cocoon-common prefix is compared. */
const JSON_TAIL = new Set(["malformed-snapshot-json", "snapshot-json-wrong-type", "snapshot-json-not-json"]);

describe("push of Go's bad export streams", () => {
  it("has Go's 22 cases", () => {
    expect(cases.length).toBe(22);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", async (id, c) => {
    const reg = new MemoryRegistry();
    let error: unknown = null;
    let manifest: Uint8Array | undefined;
    try {
      const result = await pushSnapshot(Readable.from([Buffer.from(c.exportTarBase64, "base64")]), reg, { ...c.options, now: () => CLOCK });
      manifest = result.manifestBytes;
    } catch (err) {
      error = err;
    }
    const want = REFUSED[id] ?? c.error;
    if (want === null) {
      expect(error).toBeNull();
      if (c.manifestJson) expect(Buffer.from(manifest ?? []).toString()).toBe(c.manifestJson);
      const calls = reg.calls.map(callKey);
      if (c.options.concurrency <= 1 && c.options.chunkSizeMiB <= 0) expect(calls).toEqual((c.callsBeforeResult ?? []).map(callKey));
      else expect([...calls].sort()).toEqual((c.callsBeforeResult ?? []).map(callKey).sort());
      const sink = collector();
      const pulled = streamSnapshot(manifest ?? new Uint8Array(), reg, { name: c.options.name, output: sink.output, now: () => CLOCK });
      if (c.pullError) await expect(pulled).rejects.toThrow(c.pullError);
      else await pulled;
      return;
    }
    if (!isCocoonError(error)) throw new Error(`not a CocoonError: ${String(error)}`, { cause: error });
    if (JSON_TAIL.has(id)) expect(error.message.split(": ")[0]).toBe(want.split(": ")[0]);
    else expect(error.message).toBe(want);
    if (NOTHING_UPLOADED.has(id)) expect(reg.calls).toEqual([]);
    else expect(reg.calls.map(callKey)).toEqual((c.callsBeforeResult ?? []).map(callKey));
  });
});
