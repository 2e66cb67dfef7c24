import { describe, expect, it } from "vitest";
import { readGoJSON } from "../internal/go-vectors.test-util.js";
import { decodeSnapshotConfig, marshalSnapshotConfig, type SnapshotConfig } from "./snapshot-config.js";

interface GoFile {
  Mode: number;
  SparseMap: string;
  SparseSize: number;
  Size: number;
  Chunks: string[] | null;
}
interface GoConfig {
  SchemaVersion: string;
  SnapshotID: string;
  Description: string;
  Image: string;
  ImageDigest: string;
  ImageType: string;
  ImageBlobIDs: string[];
  Hypervisor: string;
  CPU: number;
  Memory: number;
  Storage: number;
  NICs: number;
  Network: string;
  Windows: boolean;
  Files: Record<string, GoFile>;
  CreatedAt: string;
}

const cases = readGoJSON<{ snapshotConfigs: { id: string; goValue: GoConfig; json: string }[] }>("registry/manifest.json").snapshotConfigs;

function fromGo(g: GoConfig): SnapshotConfig {
  return {
    schemaVersion: g.SchemaVersion,
    snapshotId: g.SnapshotID,
    description: g.Description,
    image: g.Image,
    imageDigest: g.ImageDigest,
    imageType: g.ImageType,
    imageBlobIds: g.ImageBlobIDs,
    hypervisor: g.Hypervisor,
    cpu: g.CPU,
    memory: g.Memory,
    storage: g.Storage,
    nics: g.NICs,
    network: g.Network,
    windows: g.Windows,
    files: Object.fromEntries(
      Object.entries(g.Files).map(([k, f]) => [
        k,
        { mode: f.Mode, sparseMap: f.SparseMap, sparseSize: f.SparseSize, size: f.Size, ...(f.Chunks && { chunks: f.Chunks }) },
      ]),
    ),
    createdAt: g.CreatedAt === "0001-01-01T00:00:00Z" ? "" : g.CreatedAt,
  };
}

describe("snapshot config blobs against Go", () => {
  it("has Go's 15 configs", () => {
    expect(cases.length).toBe(15);
  });

  it.each(cases.map((c) => [c.id, c] as const))("writes %s as json.Marshal does and reads it back", (_id, c) => {
    expect(marshalSnapshotConfig(fromGo(c.goValue))).toBe(c.json);
    expect(marshalSnapshotConfig(decodeSnapshotConfig(JSON.parse(c.json)))).toBe(c.json);
  });
});
