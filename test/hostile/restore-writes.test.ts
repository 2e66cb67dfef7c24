import { lstat, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { restoreSnapshot } from "../../src/snapshot/index.js";
import { outcome } from "./support/wake.js";
import { countedSource, fileEntry, freshDir, padded, rawHeader, restoreTar, TRAILER } from "./support/restore-tar.js";

// What the restore writes: permission bits only, never through or over what the directory holds,
// every name form Go's reader takes, and an abort that ends it at once.

describe("restoreSnapshot writes permission bits only", () => {
  it.each([
    [0o4755, 0o755],
    [0o2750, 0o750],
    [0o1777, 0o777],
    [0o100600, 0o600],
    [0o0, 0o0],
  ])("mode %s comes back %s", async (mode, want) => {
    const { dir, remove } = await freshDir();
    try {
      const result = await restoreSnapshot(
        Readable.from([Buffer.concat([rawHeader({ name: "f", size: 1, mode }), padded("x"), TRAILER])]),
        dir,
      );
      expect(((await stat(join(dir, "f"))).mode & 0o7777).toString(8)).toBe(want.toString(8));
      expect(result.files).toEqual([{ name: "f", mode: want, size: 1, dataExtents: [{ offset: 0, length: 1 }] }]);
    } finally {
      await remove();
    }
  });
});

describe("restoreSnapshot never writes through or over what the directory holds", () => {
  it("a symlink already named like an entry is refused, its target untouched (O_EXCL, O_NOFOLLOW)", async () => {
    const { parent, dir, remove } = await freshDir();
    try {
      await writeFile(join(parent, "target"), "kept");
      await symlink(join(parent, "target"), join(dir, "config.json"));
      const err = await outcome(restoreSnapshot(Readable.from([Buffer.concat([fileEntry("config.json", "pwned"), TRAILER])]), dir));
      expect(isCocoonError(err, "ERR_SNAPSHOT_OUTPUT")).toBe(true);
      expect((err as Error).message).toBe(`restore: create "config.json": EEXIST: file already exists, open '${join(dir, "config.json")}'`);
      expect(await readFile(join(parent, "target"), "utf8")).toBe("kept");
      expect([(await lstat(join(dir, "config.json"))).isSymbolicLink(), await readlink(join(dir, "config.json"))]).toEqual([
        true,
        join(parent, "target"),
      ]);
    } finally {
      await remove();
    }
  });

  it("a dangling symlink is not followed either", async () => {
    const { parent, dir, remove } = await freshDir();
    try {
      await symlink(join(parent, "created"), join(dir, "config.json"));
      const err = await outcome(restoreSnapshot(Readable.from([Buffer.concat([fileEntry("config.json", "pwned"), TRAILER])]), dir));
      expect(isCocoonError(err, "ERR_SNAPSHOT_OUTPUT")).toBe(true);
      await expect(stat(join(parent, "created"))).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await remove();
    }
  });

  it("a dir that is a file is ERR_INVALID_ARGUMENT, and the source is not read", async () => {
    const { parent, remove } = await freshDir();
    try {
      await writeFile(join(parent, "file"), "");
      const { source, taken } = countedSource(Buffer.concat([fileEntry("a", "b"), TRAILER]));
      const err = await outcome(restoreSnapshot(source, join(parent, "file")));
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
      expect((err as Error).message).toBe(`restoreSnapshot: dir ${JSON.stringify(join(parent, "file"))} is not a directory`);
      expect(taken()).toBe(0);
    } finally {
      await remove();
    }
  });
});

describe("restoreSnapshot reads every name form Go's reader takes", () => {
  it("a PAX path of 200 bytes, a non-ASCII name, a GNU long name, and a global header", async () => {
    const long = "m".repeat(200);
    const gnu = Buffer.from(`${"g".repeat(150)}\0`);
    const global = Buffer.from("22 comment=ignored me\n");
    const tar = Buffer.concat([
      rawHeader({ name: "pax_global_header", typeflag: "g", size: global.length }),
      padded(global),
      fileEntry(long, "long"),
      fileEntry("日本語-notes.txt", "notes"),
      rawHeader({ name: "././@LongLink", typeflag: "L", size: gnu.length }),
      padded(gnu),
      rawHeader({ name: "cut", size: 3 }),
      padded("gnu"),
      TRAILER,
    ]);
    const got = await restoreTar(tar);
    expect(got.err).toBeUndefined();
    expect(got.result?.files.map((f) => f.name)).toEqual([long, "日本語-notes.txt", "g".repeat(150)]);
    expect(got.result?.bytes).toBe(12);
  });

  it("stops reading at the refused entry: a 64 KiB source past it is never taken", async () => {
    const tar = Buffer.concat([fileEntry("../x", "y"), Buffer.alloc(64 * 1024), TRAILER]);
    const { dir, remove } = await freshDir();
    try {
      const { source, taken } = countedSource(tar);
      const err = await outcome(restoreSnapshot(source, dir));
      expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
      expect(taken()).toBe(1);
    } finally {
      await remove();
    }
  });
});

describe("restoreSnapshot ends on abort with the signal's reason", () => {
  it("while the source stalls mid-body, and the source is destroyed", async () => {
    const { dir, remove } = await freshDir();
    try {
      const source = new PassThrough();
      source.write(Buffer.concat([rawHeader({ name: "memory", size: 8192 }), Buffer.alloc(1000)]));
      const controller = new AbortController();
      const reason = new Error("kubelet shutting down");
      const pending = outcome(restoreSnapshot(source, dir, { signal: controller.signal }));
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      controller.abort(reason);
      expect(await pending).toBe(reason);
      expect(Date.now() - started).toBeLessThan(500);
      await new Promise((r) => setTimeout(r, 50));
      expect(source.destroyed).toBe(true);
    } finally {
      await remove();
    }
  });

  it("an aborted signal ends it before the source is read", async () => {
    const { dir, remove } = await freshDir();
    try {
      const { source, taken } = countedSource(Buffer.concat([fileEntry("a", "b"), TRAILER]));
      const reason = new Error("gone");
      expect(await outcome(restoreSnapshot(source, dir, { signal: AbortSignal.abort(reason) }))).toBe(reason);
      expect(taken()).toBe(0);
    } finally {
      await remove();
    }
  });
});

describe("restoreSnapshot after the trailer", () => {
  it("waits for a writer to end the source within 10 KiB, so the writer sees every byte taken", async () => {
    const { dir, remove } = await freshDir();
    try {
      const source = new PassThrough();
      source.write(Buffer.concat([fileEntry("a", "b"), TRAILER]));
      let settled = false;
      const pending = restoreSnapshot(source, dir).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
      const finished = new Promise((r) => source.on("finish", r));
      source.end(Buffer.alloc(8 * 1024));
      expect((await pending).files.map((f) => f.name)).toEqual(["a"]);
      await finished;
      expect(source.writableFinished).toBe(true);
    } finally {
      await remove();
    }
  });

  it("leaves a tail past 10 KiB unread, and closes the source", async () => {
    const { dir, remove } = await freshDir();
    try {
      const { source, taken } = countedSource(Buffer.concat([fileEntry("a", "b"), TRAILER, Buffer.alloc(64 * 1024, 7)]));
      const result = await restoreSnapshot(source, dir);
      expect(result.files.map((f) => f.name)).toEqual(["a"]);
      expect(taken()).toBe(4 + 20);
    } finally {
      await remove();
    }
  });
});
