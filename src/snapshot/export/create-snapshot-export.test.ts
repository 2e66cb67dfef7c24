import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "../push/push.js";
import { EXPORT_MTIME, memoryLike, readImport, vmConfig } from "../snapshot-files.test-util.js";
import { createSnapshotExport, type SnapshotExportOptions } from "./create-snapshot-export.js";
import type { SnapshotExportConfig } from "./envelope-schema.js";
import { isExportFormatError } from "./export-format-error.js";
import type { SnapshotExportFile } from "./export-plan.js";
import { storedEntries } from "./tar-blocks.test-util.js";

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of stream) parts.push(p);
  return Buffer.concat(parts);
}

const write = (files: readonly SnapshotExportFile[], config: SnapshotExportConfig = vmConfig("vm"), options: SnapshotExportOptions = {}) =>
  bytesOf(createSnapshotExport(config, files, { mtime: EXPORT_MTIME, ...options }));

/** The ExportFormatError `fn` throws, as [entry, field, message]. */
function refusal(fn: () => unknown): [string, string, string] {
  try {
    fn();
  } catch (err) {
    if (isExportFormatError(err)) return [err.entry, err.field, err.message];
    throw err;
  }
  throw new Error("did not throw");
}

const MEMORY = memoryLike(3 * 4096 + 100, "m");
const LAYOUT = {
  size: 1 << 30,
  extents: [
    { offset: 0, length: 8192 },
    { offset: 1 << 20, length: 4096 + 100 },
  ],
};

describe("createSnapshotExport", () => {
  it("writes what a push accepts, and the pull gives every file, mode and sparse layout back", async () => {
    const reg = new MemoryRegistry();
    const files: SnapshotExportFile[] = [
      { name: "config.json", data: Buffer.from('{"cpus":2}') },
      { name: "memory-ranges", data: MEMORY, mode: 0o100600, sparse: LAYOUT },
      { name: "cidata.img", data: Buffer.from("seed"), mode: 0 },
      { name: "empty.log", data: new Uint8Array(0) },
    ];
    const pushed = await pushSnapshot(createSnapshotExport(vmConfig("vm"), files), reg, { name: "vm", now: () => 0 });
    expect(pushed.layerCount).toBe(4);
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output, now: () => 0 });
    const back = await readImport(sink.bytes());
    expect(back.map((e) => [e.name, e.mode, e.data.toString("hex"), e.pax])).toEqual([
      ["snapshot.json", 0o644, expect.any(String), {}],
      ["config.json", 0o640, Buffer.from('{"cpus":2}').toString("hex"), {}],
      [
        "memory-ranges",
        0o100600,
        MEMORY.toString("hex"),
        { "COCOON.sparse.map": '[{"o":0,"l":8192},{"o":1048576,"l":4196}]', "COCOON.sparse.size": "1073741824" },
      ],
      ["cidata.img", 0o640, Buffer.from("seed").toString("hex"), {}],
      ["empty.log", 0o640, "", {}],
    ]);
  });

  it("writes snapshot.json first, as Go's json.Marshal writes the envelope, mode 0644, at the export's time", async () => {
    const config = { id: "snap-<1>", name: "vm", description: "", cpu: 0, windows: false, image_blob_ids: { b: {}, a: {} } };
    const [envelope] = await readImport(await write([], config));
    expect(envelope?.data.toString()).toBe(
      '{"version":1,"config":{"id":"snap-\\u003c1\\u003e","name":"vm","image_blob_ids":{"a":{},"b":{}}}}',
    );
    const [stored] = storedEntries(await write([], config));
    expect([stored?.header.mode, stored?.header.mtime]).toEqual(["0000644\0", `${(EXPORT_MTIME.getTime() / 1000).toString(8)}\0`]);
  });

  it("takes data as bytes, as an iterable or as an async iterable of pieces: the same tar", async () => {
    const pieces = [MEMORY.subarray(0, 5000), MEMORY.subarray(5000)];
    const tars = await Promise.all([
      write([{ name: "memory-ranges", data: MEMORY }]),
      write([{ name: "memory-ranges", data: pieces, size: MEMORY.length }]),
      write([
        {
          name: "memory-ranges",
          size: MEMORY.length,
          data: (async function* () {
            yield* pieces;
          })(),
        },
      ]),
    ]);
    expect(tars[1]?.equals(tars[0] ?? Buffer.alloc(0))).toBe(true);
    expect(tars[2]?.equals(tars[0] ?? Buffer.alloc(0))).toBe(true);
  });

  it("reads a file's data only as the stream is read", async () => {
    let produced = 0;
    const data = (function* () {
      for (let i = 0; i < 64; i++) {
        produced++;
        yield new Uint8Array(1 << 20);
      }
    })();
    const stream = createSnapshotExport(vmConfig("vm"), [{ name: "memory-ranges", data, size: 64 << 20 }]);
    for (let i = 0; i < 5; i++) await stream.next(); // snapshot.json: header, body, padding; memory-ranges: header, 1 MiB
    expect(produced).toBe(1);
    await stream.return();
  });

  it("stamps each file's own time, else the export's, else now; rounded to the second as Go's tar writer does", async () => {
    const before = Math.round(Date.now() / 1000);
    const files = [
      { name: "a", data: new Uint8Array(1), mtime: new Date("2026-01-01T00:00:00.500Z") },
      { name: "b", data: new Uint8Array(1) },
    ];
    const stored = storedEntries(await bytesOf(createSnapshotExport(vmConfig("vm"), files)));
    const mtimes = stored.map((e) => Number.parseInt(e.header.mtime, 8));
    expect(mtimes[1]).toBe(Date.parse("2026-01-01T00:00:01Z") / 1000);
    expect(mtimes[0]).toBe(mtimes[2]);
    expect(Math.abs((mtimes[0] ?? 0) - before)).toBeLessThanOrEqual(1);
  });

  it.each<[string, () => unknown, [string, string, RegExp]]>([
    ["a config without an id", () => createSnapshotExport({ name: "vm" } as never, []), ["snapshot.json", "config.id", /is required/u]],
    [
      "an unknown config key",
      () => createSnapshotExport({ ...vmConfig("vm"), vcpus: 2 } as never, []),
      ["snapshot.json", "config.vcpus", /not a field/u],
    ],
    [
      "a negative cpu",
      () => createSnapshotExport({ ...vmConfig("vm"), cpu: -1 }, []),
      ["snapshot.json", "config.cpu", /must not be negative/u],
    ],
    [
      "a fractional memory",
      () => createSnapshotExport({ ...vmConfig("vm"), memory: 1.5 }, []),
      ["snapshot.json", "config.memory", /integer/u],
    ],
    [
      "a blob id set of strings",
      () => createSnapshotExport({ ...vmConfig("vm"), image_blob_ids: { a: "x" } } as never, []),
      ["snapshot.json", "config.image_blob_ids.a", /must be \{\}/u],
    ],
    ["a path", () => createSnapshotExport(vmConfig("vm"), [{ name: "a/b", data: new Uint8Array(0) }]), ["a/b", "name", /contains "\/"/u]],
    ["..", () => createSnapshotExport(vmConfig("vm"), [{ name: "..", data: new Uint8Array(0) }]), ["..", "name", /it is ".."/u]],
    [
      "snapshot.json as a file",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "snapshot.json", data: new Uint8Array(0) }]),
      ["snapshot.json", "name", /writes itself/u],
    ],
    [
      "a name twice",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          { name: "a", data: new Uint8Array(0) },
          { name: "a", data: new Uint8Array(0) },
        ]),
      ["a", "name", /appears twice/u],
    ],
    [
      "a negative mode",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(0), mode: -1 }]),
      ["a", "mode", /mode must be/u],
    ],
    [
      "a mode past 7 octal digits",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(0), mode: 0o10000000 }]),
      ["a", "mode", /mode must be/u],
    ],
    [
      "a time before 1970",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(0), mtime: new Date(-5000) }]),
      ["a", "mtime", /1970/u],
    ],
    [
      "an invalid date",
      () => createSnapshotExport(vmConfig("vm"), [], { mtime: new Date(Number.NaN) }),
      ["snapshot.json", "mtime", /1970/u],
    ],
    [
      "a stream without a size",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: [new Uint8Array(1)] }]),
      ["a", "size", /size is required/u],
    ],
    [
      "a size the bytes do not have",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(2), size: 3 }]),
      ["a", "size", /not the 2 bytes/u],
    ],
    [
      "a sparse size of 0",
      () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(0), sparse: { size: 0, extents: [] } }]),
      ["a", "sparse.size", /positive/u],
    ],
    [
      "a negative extent",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          { name: "a", data: new Uint8Array(0), sparse: { size: 8, extents: [{ offset: -1, length: 0 }] } },
        ]),
      ["a", "sparse.extents[0]", /non-negative/u],
    ],
    [
      "overlapping extents",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          {
            name: "a",
            data: new Uint8Array(8),
            sparse: {
              size: 64,
              extents: [
                { offset: 0, length: 4 },
                { offset: 2, length: 4 },
              ],
            },
          },
        ]),
      ["a", "sparse.extents", /overlaps/u],
    ],
    [
      "an extent past the size",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          { name: "a", data: new Uint8Array(8), sparse: { size: 4, extents: [{ offset: 0, length: 8 }] } },
        ]),
      ["a", "sparse.extents", /past the sparse size/u],
    ],
    [
      "data of another length than the extents",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          { name: "a", data: new Uint8Array(5), sparse: { size: 64, extents: [{ offset: 0, length: 4 }] } },
        ]),
      ["a", "size", /not the 4 bytes its extents hold/u],
    ],
    [
      "a map past 1 MiB",
      () =>
        createSnapshotExport(vmConfig("vm"), [
          {
            name: "a",
            data: [],
            size: 0,
            sparse: { size: 2 ** 40, extents: Array.from({ length: 80_000 }, (_, i) => ({ offset: i * 4096, length: 0 })) },
          },
        ]),
      ["a", "sparse.extents", /more than 1048576/u],
    ],
  ])("refuses %s before writing a byte, naming the entry and the field", (_what, fn, [entry, field, message]) => {
    const [gotEntry, gotField, gotMessage] = refusal(fn);
    expect([gotEntry, gotField]).toEqual([entry, field]);
    expect(gotMessage).toMatch(message);
  });

  it.each<[string, () => unknown]>([
    ["files that are not an array", () => createSnapshotExport(vmConfig("vm"), "memory-ranges" as never)],
    ["a file that is null", () => createSnapshotExport(vmConfig("vm"), [null as never])],
    ["data that is a string", () => createSnapshotExport(vmConfig("vm"), [{ name: "a", data: "bytes" as never, size: 5 }])],
  ])("refuses %s with ERR_INVALID_ARGUMENT", (_what, fn) => {
    expect(fn).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it.each([
    ["more bytes than its size", [new Uint8Array(3), new Uint8Array(3)], "a: data gave more than its 4 bytes"],
    ["fewer bytes than its size", [new Uint8Array(3)], "a: data gave 3 of its 4 bytes"],
  ])("fails the stream where a source gives %s", async (_what, data, message) => {
    const err = await write([{ name: "a", data, size: 4 }]).catch((e: unknown) => e);
    expect(isExportFormatError(err) && [err.entry, err.field, err.message]).toEqual(["a", "size", message]);
  });

  it("fails the stream on a piece that is not bytes, and on an abort with the signal's reason", async () => {
    const bad = await write([{ name: "a", data: ["text" as never], size: 4 }]).catch((e: unknown) => e);
    expect(isCocoonError(bad, "ERR_INVALID_ARGUMENT")).toBe(true);
    const abort = new AbortController();
    const stream = createSnapshotExport(vmConfig("vm"), [{ name: "a", data: new Uint8Array(1) }], { signal: abort.signal });
    await stream.next();
    abort.abort(new Error("stop"));
    await expect(stream.next()).rejects.toThrow("stop");
  });
});
