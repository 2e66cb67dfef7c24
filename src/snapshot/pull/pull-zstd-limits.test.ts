import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { memoryLike } from "../snapshot-files.test-util.js";
import { collector } from "../fakes.test-util.js";
import { CountingRegistry, layerJSON, manifestBytes } from "../hostile-artifact.test-util.js";
import { streamSnapshot } from "./pull.js";
import { compressFrame } from "../codec/zstd-encode.js";
import { readFrameHeader } from "../codec/zstd-header.js";

const MEMORY_ZSTD = "application/vnd.cocoonstack.vm.memory+zstd";

describe("pull: a chunk frame that declares more than the per-chunk limit", () => {
  it("fails with klauspost's size error, not the window error, and writes no byte of the file", async () => {
    // 2 MiB + 1 bytes in 3 chunks: Go's per-chunk cap (rawChunkStride) is 1 MiB + 1. The first
    // chunk is one single-segment frame declaring 1.5 MiB, so its window is its content size.
    const parts = [memoryLike(3 << 19, "a"), memoryLike(1 << 19, "b"), memoryLike(1, "c")];
    const frames = await Promise.all(parts.map((p) => compressFrame(p, 3)));
    expect(readFrameHeader(frames[0] as Uint8Array)).toEqual({ windowSize: 3 << 19, contentSize: 3 << 19 });
    const reg = new CountingRegistry();
    const digests = frames.map((f) => reg.put(f));
    const size = (2 << 20) + 1;
    const config = `{"schemaVersion":"v2","files":{"memory-ranges":{"size":${size},"chunks":${JSON.stringify(digests)}}}}`;
    const layers = digests.map((d, i) => layerJSON(MEMORY_ZSTD, d, (frames[i] as Uint8Array).length, "memory-ranges"));
    const sink = collector();
    const err = await streamSnapshot(manifestBytes(reg, config, layers, true), reg, { name: "vm", output: sink.output }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toBe(`stream memory-ranges: decode chunk ${digests[0]}: decompressed size exceeds configured limit`);
    // What was written: the envelope and the file's header, as Go writes them before it fails; no byte of the file.
    const bytes = sink.bytes();
    const envelope = Number.parseInt(bytes.subarray(124, 135).toString(), 8);
    expect(bytes.length).toBe(512 + Math.ceil(envelope / 512) * 512 + 512);
    const last = bytes.subarray(bytes.length - 512);
    expect(last.subarray(0, 100).toString().replace(/\0+$/u, "")).toBe("memory-ranges");
    expect(Number.parseInt(last.subarray(124, 135).toString(), 8)).toBe(size);
  });
});
