import { describe, expect, it } from "vitest";
import { marshalManifest } from "./manifest-json.js";
import { classifyManifest, classifyParsedManifest, descriptorTitle, type OCIManifest, parseManifest } from "./manifest-types.js";
import {
  isDiskMediaType,
  isSnapshotLayerMediaType,
  isZstdMediaType,
  mediaTypeForCocoonFile,
  stripZstd,
  zstdMediaType,
} from "./media-types.js";
import { readGoJSON } from "../internal/go-vectors.test-util.js";

interface Vectors {
  mediaTypes: {
    mediaType: string;
    isDiskMediaType: boolean;
    isSnapshotLayerMediaType: boolean;
    isZstdMediaType: boolean;
    stripZstd: string;
    zstdMediaType: string;
  }[];
  cocoonFiles: { name: string; mediaType: string }[];
  classify: {
    id: string;
    raw?: string;
    rawBase64?: string;
    classify: string;
    classifyError: string | null;
    parseError: string | null;
    classifyParsed?: string;
    parsed?: {
      artifactType: string;
      configMediaType: string;
      layerCount: number;
      layerTitles: string[];
      layersNil: boolean;
      manifestCount: number;
      mediaType: string;
      schemaVersion: number;
      annotations: Record<string, string> | null;
    };
  }[];
  manifests: { id: string; goValue: OCIManifest; marshalIndent: string }[];
}

const v = readGoJSON<Vectors>("registry/manifest.json");

describe("media types and manifests against Go", () => {
  it("has Go's 50 media types, 28 file names, 36 manifests to classify and 7 to write", () => {
    expect([v.mediaTypes.length, v.cocoonFiles.length, v.classify.length, v.manifests.length]).toEqual([50, 28, 36, 7]);
  });

  it("answers every media-type helper as Go does", () => {
    for (const m of v.mediaTypes) {
      expect([
        m.mediaType,
        isDiskMediaType(m.mediaType),
        isSnapshotLayerMediaType(m.mediaType),
        isZstdMediaType(m.mediaType),
        stripZstd(m.mediaType),
        zstdMediaType(m.mediaType),
      ]).toEqual([m.mediaType, m.isDiskMediaType, m.isSnapshotLayerMediaType, m.isZstdMediaType, m.stripZstd, m.zstdMediaType]);
    }
    for (const f of v.cocoonFiles) expect([f.name, mediaTypeForCocoonFile(f.name)]).toEqual([f.name, f.mediaType]);
  });

  it.each(v.classify.map((c) => [c.id, c] as const))("classifies and parses %s as Go does", (_id, c) => {
    const raw = c.rawBase64 !== undefined ? Buffer.from(c.rawBase64, "base64") : Buffer.from(c.raw ?? "");
    if (c.classifyError === null) expect(classifyManifest(raw)).toBe(c.classify);
    else expect(() => classifyManifest(raw)).toThrow(/^classify manifest: /u);
    if (c.parseError !== null) {
      expect(() => parseManifest(raw)).toThrow(/^parse oci manifest: /u);
      return;
    }
    const m = parseManifest(raw);
    if (c.parsed === undefined || c.classifyParsed === undefined) return;
    expect(classifyParsedManifest(m)).toBe(c.classifyParsed);
    expect({
      artifactType: m.artifactType,
      configMediaType: m.config.mediaType,
      layerCount: m.layers?.length ?? 0,
      layerTitles: (m.layers ?? []).map(descriptorTitle),
      layersNil: m.layers === null,
      manifestCount: m.manifests?.length ?? 0,
      mediaType: m.mediaType,
      schemaVersion: m.schemaVersion,
      annotations: m.annotations ?? null,
    }).toEqual(c.parsed);
  });

  it.each(v.manifests.map((c) => [c.id, c] as const))("writes manifest %s as MarshalIndent does", (_id, c) => {
    expect(marshalManifest(c.goValue)).toBe(c.marshalIndent);
  });
});
