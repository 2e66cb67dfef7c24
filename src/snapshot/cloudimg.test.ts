import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { readGoJSON } from "../internal/go-vectors.test-util.js";
import { streamCloudImage } from "./cloudimg.js";
import { collector, MemoryRegistry } from "./fakes.test-util.js";

interface CloudCase {
  id: string;
  manifest: string;
  blobs: Record<string, string>;
  error: string | null;
  output: string;
  readBlobCalls: string[] | null;
}
const cases = readGoJSON<{ cases: CloudCase[] }>("registry/cloudimg.json").cases;
/** The TS stream checks digests too (docs/differences-from-go.md); Go's cloudimg checks only lengths. */
const DIGEST_CHECKED: Readonly<Record<string, string>> = {
  "wrong-bytes-same-size-accepted": "blob sha256:278f14e96cc67489e5c0d6cebec8a2718fb158ec656fd41fed7ecd031cd472b2 digest mismatch",
};

class RecordingRegistry extends MemoryRegistry {
  readonly reads: string[] = [];
  override async getBlob(name: string, digest: string) {
    this.reads.push(digest);
    return super.getBlob(name, digest);
  }
}

describe("cloud images against Go", () => {
  it("has Go's 18 cases", () => {
    expect(cases.length).toBe(18);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", async (id, c) => {
    const reg = new RecordingRegistry();
    for (const [d, text] of Object.entries(c.blobs)) reg.blobs.set(d, Buffer.from(text));
    const sink = collector();
    const err = await streamCloudImage(Buffer.from(c.manifest), reg, { name: "img", output: sink.output }).catch((e: unknown) => e);
    expect(reg.reads).toEqual(c.readBlobCalls ?? []);
    const want = DIGEST_CHECKED[id] ?? c.error;
    if (want === null) {
      expect(err).toBeUndefined();
      expect(sink.bytes().toString()).toBe(c.output);
      return;
    }
    if (!isCocoonError(err)) throw new Error(`not a CocoonError: ${String(err)}`, { cause: err });
    expect(err.message.startsWith(want)).toBe(true);
    expect(sink.output.writableFinished).toBe(false);
  });
});
