import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../internal/go-vectors.test-util.js";
import { indentGoJSON, marshalGoJSON } from "../../internal/go/index.js";
import { callKey, clockOf, collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "./push.js";

const json = <T>(...p: string[]): T => JSON.parse(read(...p).toString()) as T;

interface GoPushOptions {
  name: string;
  tag: string;
  baseImage: string;
  source: string;
  revision: string;
  annotations: Record<string, string> | null;
  zstdLevel: number;
  chunkSizeMiB: number;
  concurrency: number;
  memoryBudgetMiB: number;
  nowUnixMilli: number;
}
interface GoUploads {
  calls: { op: string; name: string; digest?: string; size?: number; exists?: boolean; tag?: string; contentType?: string }[];
  orderDeterministic: boolean;
  sortedPrefixLength?: number;
}
interface Layer {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}
interface Manifest {
  config: { digest: string; size: number };
  layers: Layer[] | null;
  [k: string]: unknown;
}

/** The README's placeholders: each `+zstd` layer's digest becomes `zstd:<title>:<n>`, n counting per title. */
function zstdPlaceholders(m: Manifest): Map<string, string> {
  const names = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const l of m.layers ?? []) {
    if (!l.mediaType.endsWith("+zstd")) continue;
    const title = l.annotations?.["org.opencontainers.image.title"] ?? "";
    const n = seen.get(title) ?? 0;
    seen.set(title, n + 1);
    names.set(l.digest, `zstd:${title}:${n}`);
  }
  return names;
}

/** The README's normalization of a zstd case: compressed digests become placeholders, their sizes -1. */
function normalize(manifestText: string, configText: string): { manifest: string; config: string } {
  const m = JSON.parse(manifestText) as Manifest;
  const names = zstdPlaceholders(m);
  for (const l of m.layers ?? []) {
    const placeholder = names.get(l.digest);
    if (placeholder === undefined) continue;
    l.digest = placeholder;
    l.size = -1;
  }
  const cfg = JSON.parse(configText) as { files?: Record<string, { chunks?: string[] }> };
  for (const f of Object.values(cfg.files ?? {})) if (f.chunks) f.chunks = f.chunks.map((c) => names.get(c) ?? c);
  const config = marshalGoJSON(cfg); // JSON.parse keeps the key order Go wrote
  if (config !== configText) {
    m.config.digest = "config:normalized";
    m.config.size = -1;
  }
  return { manifest: indentGoJSON(marshalGoJSON(m)), config };
}

interface Call {
  op?: string;
  call?: string;
  name: string;
  digest?: string;
  size?: number;
  exists?: boolean;
  tag?: string;
  contentType?: string;
}

/** Upload calls with every digest that zstd output decides replaced by a placeholder (and its size by -1). */
function normalizeCalls(calls: readonly Call[], manifestText: string): string[] {
  const m = JSON.parse(manifestText) as Manifest;
  const names = zstdPlaceholders(m).set(m.config.digest, "config");
  return calls
    .map((c) => {
      const placeholder = c.digest === undefined ? undefined : names.get(c.digest);
      const manifest = (c.op ?? c.call) === "PutManifest";
      const zstd = placeholder?.startsWith("zstd:") === true;
      return callKey({ ...c, digest: manifest ? "manifest" : (placeholder ?? c.digest), size: manifest || zstd ? -1 : c.size });
    })
    .sort();
}

async function push(dir: string, reg: MemoryRegistry, progress: string[]) {
  const o = json<GoPushOptions>("snapshot", dir, "push-options.json");
  return pushSnapshot(Readable.from([read("snapshot", dir, "export.tar")]), reg, {
    name: o.name,
    tag: o.tag,
    baseImage: o.baseImage,
    source: o.source,
    revision: o.revision,
    ...(o.annotations && { annotations: o.annotations }),
    zstdLevel: o.zstdLevel,
    chunkSizeMiB: o.chunkSizeMiB,
    concurrency: o.concurrency,
    memoryBudgetMiB: o.memoryBudgetMiB,
    progress: (l) => progress.push(l),
    now: clockOf(o),
  });
}

describe("push of Go's export streams", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s uploads what Go uploads, and pulls back Go's import tar", async (dir) => {
    const reg = new MemoryRegistry();
    const progress: string[] = [];
    const result = await push(dir, reg, progress);
    const zstd = dir.includes("zstd");
    const manifest = Buffer.from(result.manifestBytes).toString();
    const cfgDigest = (JSON.parse(manifest) as Manifest).config.digest;
    const config = Buffer.from(reg.blobs.get(cfgDigest) ?? []).toString();
    if (zstd) {
      const n = normalize(manifest, config);
      expect(n.manifest).toBe(read("snapshot", dir, "manifest.normalized.json").toString());
      expect(n.config).toBe(read("snapshot", dir, "config.normalized.json").toString());
      const goCalls = json<GoUploads>("snapshot", dir, "uploads.json").calls;
      expect(normalizeCalls(reg.calls, manifest)).toEqual(normalizeCalls(goCalls, read("snapshot", dir, "manifest.json").toString()));
    } else {
      expect(manifest).toBe(read("snapshot", dir, "manifest.json").toString());
      expect(config).toBe(read("snapshot", dir, "config.json").toString());
      const want = json<{ manifestDigest: string; totalSize: number; layerCount: number; progress: string[] }>(
        "snapshot",
        dir,
        "push-result.json",
      );
      expect(result.manifestDigest).toBe(want.manifestDigest);
      expect(result.totalSize).toBe(want.totalSize);
      expect(result.layerCount).toBe(want.layerCount);
      expect([...progress].sort()).toEqual([...want.progress].sort());
      const uploads = json<GoUploads>("snapshot", dir, "uploads.json");
      const gotKeys = reg.calls.map(callKey);
      const wantKeys = uploads.calls.map(callKey);
      const prefix = uploads.orderDeterministic ? 0 : (uploads.sortedPrefixLength ?? 0);
      expect(gotKeys.slice(prefix)).toEqual(wantKeys.slice(prefix));
      expect(gotKeys.slice(0, prefix).sort()).toEqual(wantKeys.slice(0, prefix).sort());
    }
    const so = json<{ name: string; localName: string; nowUnixMilli: number }>("snapshot", dir, "stream-options.json");
    const sink = collector();
    await streamSnapshot(result.manifestBytes, reg, { name: so.name, localName: so.localName, output: sink.output, now: clockOf(so) });
    expect(sink.bytes().equals(read("snapshot", dir, "stream.tar"))).toBe(true);
  });
});
