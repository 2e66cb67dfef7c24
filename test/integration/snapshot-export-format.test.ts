// The export format on a real registry (CNCF distribution) behind a proxy that counts requests on
// the wire: every export Go accepted pushes and pulls back (pullSnapshot, one call) to Go's import
// tar; every export that breaks the format is refused before the first request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../src/internal/go-vectors.test-util.js";
import { OCIRegistry } from "../../src/oci/oci-registry.js";
import { createSnapshotExport } from "../../src/snapshot/export/create-snapshot-export.js";
import { isExportFormatError } from "../../src/snapshot/export/export-format-error.js";
import { collector } from "../../src/snapshot/fakes.test-util.js";
import { envelopeEntry, indexFor, OCI_INDEX, paxEntry, pieces, tarEntry, TRAILER } from "../../src/snapshot/hostile-artifact.test-util.js";
import { pullSnapshot } from "../../src/snapshot/pull/pull-snapshot.js";
import { pushSnapshot } from "../../src/snapshot/push/push.js";
import { memoryLike, vmConfig } from "../../src/snapshot/snapshot-files.test-util.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { startTestRegistry } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

let registry: TestRegistry;
let proxy: RegistryProxy;
let oci: OCIRegistry;
beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startRegistryProxy(registry.host);
  oci = new OCIRegistry(proxy.host);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});
beforeEach(() => proxy.reset());

const MEMORY = tarEntry("memory-ranges", memoryLike(64 * 1024, "m"));
const snapshotJSON = (json: string): Buffer => tarEntry("snapshot.json", json);
const sparse = (map: string): Buffer =>
  paxEntry("memory-ranges", Buffer.alloc(16), { "COCOON.sparse.map": map, "COCOON.sparse.size": "4096" });

const REFUSED: readonly (readonly [string, Buffer[], string, string])[] = [
  ["a malformed snapshot.json", [snapshotJSON('{"version":1,"config":'), MEMORY], "snapshot.json", ""],
  ["a flat snapshot.json", [snapshotJSON('{"id":"snap-1","name":"vm"}'), MEMORY], "snapshot.json", "version"],
  ["a snapshot.json without an id", [snapshotJSON('{"version":1,"config":{"name":"vm"}}'), MEMORY], "snapshot.json", "config.id"],
  ...(
    [
      ["version", '"1"'],
      ["config", "[]"],
      ["config.id", "1"],
      ["config.name", "{}"],
      ["config.description", "1"],
      ["config.image", "true"],
      ["config.image_digest", "[]"],
      ["config.image_type", "1"],
      ["config.image_blob_ids", '"a"'],
      ["config.hypervisor", "2"],
      ["config.cpu", '"2"'],
      ["config.memory", "1.5"],
      ["config.storage", '"20Gi"'],
      ["config.nics", "true"],
      ["config.network", "{}"],
      ["config.windows", '"yes"'],
    ] as const
  ).map(([field, value]): readonly [string, Buffer[], string, string] => {
    const json =
      field === "version" || field === "config"
        ? `{"version":1,"config":{"id":"s","name":"vm"},"${field}":${value}}`
        : `{"version":1,"config":{"id":"s","name":"vm","${field.slice("config.".length)}":${value}}}`;
    return [`${field} of the wrong type`, [snapshotJSON(json), MEMORY], "snapshot.json", field];
  }),
  ["a bad sparse map", [envelopeEntry(), sparse("nonsense")], "memory-ranges", "COCOON.sparse.map"],
  [
    "a bad sparse map before snapshot.json",
    [sparse('[{"o":0,"l":8},{"o":4,"l":8}]'), envelopeEntry()],
    "memory-ranges",
    "COCOON.sparse.map",
  ],
  ["no snapshot.json", [MEMORY], "snapshot.json", ""],
];

describe("the export format, on a real registry", () => {
  it.each(REFUSED)("refuses %s before any request, naming the entry and the field", async (_what, entries, entry, field) => {
    const err = await pushSnapshot(pieces(Buffer.concat([...entries, TRAILER])), oci, { name: "vm-format" }).catch((e: unknown) => e);
    expect(isExportFormatError(err) && [err.entry, err.field]).toEqual([entry, field]);
    expect(proxy.requests).toEqual([]);
    expect(proxy.uploadedBytes()).toBe(0);
  });

  it.each(SNAPSHOT_VECTOR_CASES)("%s: Go's export pushes, and pullSnapshot gives Go's import tar back", async (dir) => {
    // Pushed v1 (Go's knobs do not change the import tar), under a name of its own; the import names the VM as Go's pull did.
    const name = `vm-anchor-${dir}`;
    const pushed = await pushSnapshot(pieces(read("snapshot", dir, "export.tar")), oci, { name, tag: "hibernate", now: () => 0 });
    const o = JSON.parse(read("snapshot", dir, "stream-options.json").toString()) as {
      name: string;
      localName: string;
      nowUnixMilli: number;
    };
    const sink = collector();
    const pulled = await pullSnapshot(oci, `${name}:hibernate`, sink.output, {
      localName: o.localName || o.name,
      now: () => o.nowUnixMilli,
    });
    expect(sink.bytes().equals(read("snapshot", dir, "stream.tar"))).toBe(true);
    expect(pulled.manifestDigest).toBe(pushed.manifestDigest);
  });

  it("pullSnapshot resolves an image index in one call: the index, its child, then the artifact", async () => {
    const files = [
      { name: "memory-ranges", data: memoryLike(256 * 1024, "i"), sparse: { size: 1 << 30, extents: [{ offset: 0, length: 256 * 1024 }] } },
    ];
    const pushed = await pushSnapshot(createSnapshotExport(vmConfig("vm-index"), files), oci, { name: "vm-index", tag: "single" });
    const index = indexFor(pushed.manifestBytes);
    await oci.putManifest("vm-index", "hibernate", index, OCI_INDEX);
    proxy.reset();
    const sink = collector();
    const pulled = await pullSnapshot(oci, "vm-index:hibernate", sink.output);
    expect(pulled.config.snapshotId).toBe("snap-1");
    expect(proxy.requests.map((r) => `${r.method} ${r.path.replace(/sha256:[0-9a-f]{64}/gu, "<digest>")}`)).toEqual([
      "GET /v2/vm-index/manifests/hibernate",
      "GET /v2/vm-index/manifests/<digest>",
      "GET /v2/vm-index/blobs/<digest>",
      "GET /v2/vm-index/blobs/<digest>",
    ]);
    expect(sink.bytes().length).toBeGreaterThan(256 * 1024);
  });
});
