import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import type { Descriptor, OCIManifest } from "../../oci/manifest-types.js";
import { ArtifactType, MediaType, OCIAnnotation, zstdMediaType } from "../../oci/media-types.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { importEntries } from "./import-entries.js";

const layer = (title: string, digest: string, size: number, mediaType: string = MediaType.Generic): Descriptor => ({
  mediaType,
  digest: `sha256:${digest.repeat(64)}`,
  size,
  annotations: { [OCIAnnotation.Title]: title },
});
const manifest = (artifactType: string, layers: Descriptor[]): OCIManifest => ({
  schemaVersion: 2,
  artifactType,
  config: { mediaType: MediaType.SnapshotConfig, digest: `sha256:${"c".repeat(64)}`, size: 2 },
  layers,
});
const config = (files: NonNullable<SnapshotConfig["files"]>): SnapshotConfig => ({ schemaVersion: "v2", snapshotId: "s", files });

describe("importEntries", () => {
  const config1 = layer("config.json", "1", 10);
  const [part0, part1] = [layer("disk.raw", "2", 300, MediaType.DiskRawPart), layer("disk.raw", "3", 200, MediaType.DiskRawPart)];
  const memory = layer("memory", "4", 70, zstdMediaType(MediaType.VMMemory));
  const cfg = config({
    "config.json": { mode: 0o600 },
    "disk.raw": { size: 500, chunks: [part1.digest, part0.digest] },
    memory: { size: 4096 },
  });

  it("lists a v2 artifact's layers as stored, each encoded file once at its first layer, in the config's chunk order", () => {
    const entries = importEntries(manifest(ArtifactType.SnapshotV2, [config1, part0, memory, part1]), cfg);
    expect(entries).toEqual([
      { title: "config.json", meta: { mode: 0o600 }, size: 10, layer: config1 },
      { title: "disk.raw", meta: cfg.files?.["disk.raw"], size: 500, chunks: [part1, part0], largest: 300, zstd: false },
      { title: "memory", meta: { size: 4096 }, size: 4096, chunks: [memory], largest: 70, zstd: true },
    ]);
  });

  it("passes every v1 layer through as stored, with `{}` for a title the config does not name", () => {
    const other = layer("toString", "5", 3);
    const v1 = config({ "config.json": { mode: 0o600 } });
    expect(importEntries(manifest(ArtifactType.Snapshot, [config1, other]), v1)).toEqual([
      { title: "config.json", meta: { mode: 0o600 }, size: 10, layer: config1 },
      { title: "toString", meta: {}, size: 3, layer: other },
    ]);
  });

  it("refuses an encoded file whose chunk the manifest does not list, with Go's words", () => {
    let caught: unknown;
    try {
      importEntries(manifest(ArtifactType.SnapshotV2, [config1, part0]), cfg);
    } catch (err) {
      caught = err;
    }
    expect(isCocoonError(caught, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((caught as Error).message).toBe(`disk.raw chunk 0 (${part1.digest}) missing from manifest layers`);
  });
});
