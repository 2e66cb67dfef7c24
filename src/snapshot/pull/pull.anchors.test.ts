import { describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../internal/go-vectors.test-util.js";
import { streamSnapshot } from "./pull.js";
import { clockOf, collector, MemoryRegistry } from "../fakes.test-util.js";

const json = (...p: string[]): Record<string, unknown> => JSON.parse(read(...p).toString()) as Record<string, unknown>;

async function pull(dir: string, manifest: Buffer, budget: number | undefined, reg: MemoryRegistry) {
  const so = json("snapshot", dir, "stream-options.json") as {
    name: string;
    localName: string;
    concurrency: number;
    memoryBudgetMiB: number;
    nowUnixMilli: number;
  };
  const sink = collector();
  const progress: string[] = [];
  await streamSnapshot(manifest, reg, {
    name: so.name,
    localName: so.localName,
    output: sink.output,
    progress: (l) => progress.push(l),
    concurrency: so.concurrency,
    memoryBudgetMiB: budget ?? so.memoryBudgetMiB,
    now: clockOf(so),
  });
  return { bytes: sink.bytes(), progress };
}

describe("pull of Go's artifacts", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s gives Go's import tar byte for byte, windowed and sequential", async (dir) => {
    const reg = new MemoryRegistry();
    reg.loadBlobs(`registry/snapshot/${dir}/blobs`);
    const want = read("snapshot", dir, "stream.tar");
    const result = json("snapshot", dir, "stream-result.json") as { progress: string[] };
    const got = await pull(dir, read("snapshot", dir, "manifest.json"), undefined, reg);
    expect(got.bytes.equals(want)).toBe(true);
    expect(got.progress).toEqual(result.progress);
    const seq = await pull(dir, read("snapshot", dir, "manifest.json"), 1, reg);
    expect(seq.bytes.equals(want)).toBe(true);
  });
});
