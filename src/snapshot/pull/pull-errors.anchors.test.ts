import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { goVectorNames, hasGoVector, readGoJSON, readGoVector } from "../../internal/go-vectors.test-util.js";
import { isCocoonError } from "../../errors.js";
import { streamSnapshot } from "./pull.js";
import { clockOf, collector, MemoryRegistry } from "../fakes.test-util.js";

interface PullErrorCase {
  id: string;
  base: string;
  blobsFrom?: string;
  blobOverrides?: string[] | null;
  blobsRemoved?: string[] | null;
  streamOptions: { name: string; localName: string; concurrency: number; memoryBudgetMiB: number; now: string };
  error: string | null;
  outputSha256?: string;
}

const dirOf = (id: string): string => `registry/pull-errors/${id}`;
const ids = goVectorNames("registry/pull-errors").filter((d) => d !== "index.json");

/** Where the TS pull differs on purpose: it checks every blob's digest, Go's snapshot layer only lengths. */
const DIGEST_CHECKED: Readonly<Record<string, string>> = {
  "wrong-blob-digest": "blob sha256:0af81456e688c9340b47de3636dd02f986b337e8a2e5a3d0b281751a18bdf85b digest mismatch",
  "corrupt-zstd-chunk":
    "stream memory-ranges: blob sha256:4e6140f6cf72779cfd193f34ed8cb2c35ce94d3804ceb39a4a828d28af86b602 digest mismatch",
};

async function run(c: PullErrorCase): Promise<{ error: unknown; bytes: Buffer }> {
  const reg = new MemoryRegistry();
  reg.loadBlobs(`registry/${c.blobsFrom ?? `${c.base}/blobs`}`);
  for (const d of c.blobOverrides ?? []) reg.blobs.set(d, readGoVector(`${dirOf(c.id)}/blobs/${d.replace(":", "-")}`));
  for (const d of c.blobsRemoved ?? []) reg.blobs.delete(d);
  const sink = collector();
  const manifestPath = `${dirOf(c.id)}/manifest.json`;
  try {
    await streamSnapshot(readGoVector(manifestPath), reg, {
      name: c.streamOptions.name,
      localName: c.streamOptions.localName,
      concurrency: c.streamOptions.concurrency,
      memoryBudgetMiB: c.streamOptions.memoryBudgetMiB,
      output: sink.output,
      now: clockOf(c.streamOptions),
    });
    return { error: null, bytes: sink.bytes() };
  } catch (error) {
    return { error, bytes: sink.bytes() };
  }
}

describe("pull of Go's corrupted artifacts", () => {
  const pullCases = ids.filter((id) => hasGoVector(`${dirOf(id)}/manifest.json`));
  it("runs 28 of Go's 29 cases (manifest-not-found has no manifest to pull)", () => {
    expect([ids.length, pullCases.length]).toEqual([29, 28]);
  });

  it.each(pullCases)("%s fails (or succeeds) as Go's pull does", async (id) => {
    const c = readGoJSON<PullErrorCase>(`${dirOf(id)}/case.json`);
    const { error, bytes } = await run(c);
    const want = DIGEST_CHECKED[id] ?? c.error;
    if (want === null) {
      expect(error).toBeNull();
      if (c.outputSha256) expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`).toBe(c.outputSha256);
      return;
    }
    if (!isCocoonError(error)) throw new Error(`not a CocoonError: ${String(error)}`, { cause: error });
    const message = (error as Error).message;
    if (id in DIGEST_CHECKED) expect(message.startsWith(want)).toBe(true);
    else expect(message).toBe(want);
  });
});
