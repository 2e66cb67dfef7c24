import { readFileSync } from "node:fs";
import path from "node:path";
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
import { ANCHORS, HAVE_ANCHORS, NO_ANCHORS } from "../snapshot/fakes.test-util.js";

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

const v: Vectors | undefined = HAVE_ANCHORS
  ? (JSON.parse(readFileSync(path.join(ANCHORS, "manifest.json"), "utf8")) as Vectors)
  : undefined;
/** Go refuses `3.0` for an int64; JSON.parse cannot tell it from `3`, so the TS parse accepts it. */
const PARSE_ACCEPTS = new Set(["layer-size-float"]);

describe.skipIf(!HAVE_ANCHORS)(`media types and manifests against Go (${HAVE_ANCHORS ? "anchors present" : NO_ANCHORS})`, () => {
  it("answers every media-type helper as Go does", () => {
    for (const m of v?.mediaTypes ?? []) {
      expect([
        m.mediaType,
        isDiskMediaType(m.mediaType),
        isSnapshotLayerMediaType(m.mediaType),
        isZstdMediaType(m.mediaType),
        stripZstd(m.mediaType),
        zstdMediaType(m.mediaType),
      ]).toEqual([m.mediaType, m.isDiskMediaType, m.isSnapshotLayerMediaType, m.isZstdMediaType, m.stripZstd, m.zstdMediaType]);
    }
    for (const f of v?.cocoonFiles ?? []) expect([f.name, mediaTypeForCocoonFile(f.name)]).toEqual([f.name, f.mediaType]);
  });

  it.each((v?.classify ?? []).map((c) => [c.id, c] as const))("classifies and parses %s as Go does", (_id, c) => {
    const raw = c.rawBase64 !== undefined ? Buffer.from(c.rawBase64, "base64") : Buffer.from(c.raw ?? "");
    if (c.classifyError === null) expect(classifyManifest(raw)).toBe(c.classify);
    else expect(() => classifyManifest(raw)).toThrow(/^classify manifest: /u);
    if (c.parseError !== null && !PARSE_ACCEPTS.has(c.id)) {
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

  it.each((v?.manifests ?? []).map((c) => [c.id, c] as const))("writes manifest %s as MarshalIndent does", (_id, c) => {
    expect(marshalManifest(c.goValue)).toBe(c.marshalIndent);
  });
});
