import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { parseManifest } from "../oci/manifest-types.js";
import { checkRegistryNames, MAX_FILE_CHUNKS, MAX_LAYERS } from "./artifact-checks.js";
import { collector } from "./fakes.test-util.js";
import { CountingRegistry, layerJSON, manifestBytes } from "./hostile-artifact.test-util.js";
import { streamSnapshot, streamSnapshotParsed } from "./pull/pull.js";

const MEMORY = "application/vnd.cocoonstack.vm.memory";

describe("pull: the number of chunk references", () => {
  it("plans a file of 200 000 chunk references without spreading them onto the stack", async () => {
    const reg = new CountingRegistry();
    const present = reg.put("x");
    const absent = "sha256:" + "ab".repeat(32);
    const count = 200_000;
    const chunks = [absent, ...Array<string>(count - 1).fill(present)];
    const size = count * 2 ** 20;
    const config = `{"schemaVersion":"v2","files":{"memory-ranges":{"size":${size},"chunks":${JSON.stringify(chunks)}}}}`;
    const manifest = manifestBytes(
      reg,
      config,
      [layerJSON(MEMORY, absent, 1, "memory-ranges"), layerJSON(MEMORY, present, 1, "memory-ranges")],
      true,
    );
    const sink = collector();
    const err = await streamSnapshot(manifest, reg, { name: "vm", output: sink.output }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_TRANSFER")).toBe(true);
    expect((err as Error).message).toBe(`stream memory-ranges: get blob ${absent}: blob not found`);
  });

  it("refuses more chunks than a push cuts a file into (one per MiB), before writing or fetching", async () => {
    const reg = new CountingRegistry();
    const a = reg.put(Buffer.alloc(1 << 20, 1));
    const b = reg.put(Buffer.alloc(1 << 19, 2));
    const c = reg.put(Buffer.alloc(1 << 19, 3));
    const config = `{"schemaVersion":"v2","files":{"memory-ranges":{"size":2097152,"chunks":["${a}","${b}","${c}"]}}}`;
    const layers = [
      layerJSON(MEMORY, a, 1 << 20, "memory-ranges"),
      layerJSON(MEMORY, b, 1 << 19, "memory-ranges"),
      layerJSON(MEMORY, c, 1 << 19, "memory-ranges"),
    ];
    const sink = collector();
    const err = await streamSnapshot(manifestBytes(reg, config, layers, true), reg, { name: "vm", output: sink.output }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe("memory-ranges: 3 chunks for 2097152 bytes, more than one per MiB");
    expect(sink.bytes().length).toBe(0);
    expect(reg.reads).toHaveLength(1); // the config
  });

  it("refuses a manifest of more than 2^20 layers before writing or fetching", async () => {
    const reg = new CountingRegistry();
    const config = reg.put('{"schemaVersion":"v1","files":{}}');
    const layer = {
      mediaType: MEMORY,
      digest: "sha256:" + "cd".repeat(32),
      size: 1,
      annotations: { "org.opencontainers.image.title": "memory-ranges" },
    };
    const m = parseManifest(
      Buffer.from(
        `{"schemaVersion":2,"artifactType":"application/vnd.cocoonstack.snapshot.v1+json","config":{"mediaType":"application/vnd.cocoonstack.snapshot.config.v1+json","digest":"${config}","size":33}}`,
      ),
    );
    const sink = collector();
    const err = await streamSnapshotParsed({ ...m, layers: Array(MAX_LAYERS + 1).fill(layer) }, reg, {
      name: "vm",
      output: sink.output,
    }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe("manifest has 1048577 layers, more than the 1048576 a snapshot may have");
    expect(sink.bytes().length).toBe(0);
    expect(reg.reads).toEqual([`blob ${config}`]);
  });

  it("refuses more than 2^20 chunks for one file, with the words of Go's push", () => {
    const digest = "sha256:" + "ef".repeat(32);
    const layer = { mediaType: MEMORY, digest, size: 1, annotations: { "org.opencontainers.image.title": "memory-ranges" } };
    const m = { schemaVersion: 2, artifactType: "application/vnd.cocoonstack.snapshot.v2+json", layers: [layer] };
    const cfg = {
      schemaVersion: "v2",
      files: { "memory-ranges": { size: 2 ** 50, chunks: Array<string>(MAX_FILE_CHUNKS + 1).fill(digest) } },
    };
    expect(() => checkRegistryNames(m as never, cfg as never)).toThrow("memory-ranges: 1048577 chunks exceeds sanity cap");
  });
});
