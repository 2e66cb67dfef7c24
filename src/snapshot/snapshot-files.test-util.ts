// Test and bench helper: the exports tests push (written by createSnapshotExport, the package's own
// writer), VM-memory-like bytes to fill them, and the import tar a pull writes, read back.
import { Readable } from "node:stream";
import { ByteReader } from "./io/byte-reader.js";
import { readTar } from "./codec/tar-reader.js";
import { createSnapshotExport } from "./export/create-snapshot-export.js";
import type { SnapshotExportConfig } from "./export/envelope-schema.js";
import type { SnapshotExportFile } from "./export/export-plan.js";

/** The time stamped on the test exports, as on Go's vectors. */
export const EXPORT_MTIME = new Date("2026-07-23T08:00:00Z");

/** The `snapshot.json` config of a small VM named `name`. */
export function vmConfig(name: string, id = "snap-1"): SnapshotExportConfig {
  return { id, name, hypervisor: "cloud-hypervisor", cpu: 2, memory: 1 << 30 };
}

/** The export of `files` for the VM `name` ({@link vmConfig}), as {@link createSnapshotExport} writes it. */
export function exportOf(name: string, files: readonly SnapshotExportFile[]): AsyncGenerator<Uint8Array> {
  return createSnapshotExport(vmConfig(name), files, { mtime: EXPORT_MTIME });
}

/** Compressible bytes like a VM's memory: repeated 64-byte motifs per 4 KiB page, every 61st page noise. */
export function memoryLike(size: number, label: string): Buffer {
  const out = Buffer.alloc(size);
  let seed = 0x9e3779b9;
  for (let page = 0; page * 4096 < size; page++) {
    const at = page * 4096;
    const end = Math.min(at + 4096, size);
    if (page % 61 === 7) {
      for (let i = at; i < end; i++) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        out[i] = seed & 0xff;
      }
    } else {
      const motif = Buffer.from(`${label} page ${String(page).padStart(6, "0")}\n`.padEnd(64, "."));
      for (let i = at; i < end; i += 64) motif.copy(out, i, 0, Math.min(64, end - i));
    }
  }
  return out;
}

/** One entry of an import tar, read back. */
export interface ImportEntry {
  readonly name: string;
  readonly typeflag: string;
  readonly data: Buffer;
  readonly mode: number;
  readonly pax: Readonly<Record<string, string>>;
}

/** Reads a tar (an import tar, an export) back into its entries (name, type, mode, PAX records, bytes). */
export async function readImport(bytes: Uint8Array): Promise<ImportEntry[]> {
  const out: ImportEntry[] = [];
  for await (const { entry, body } of readTar(new ByteReader(Readable.from([bytes])))) {
    const parts: Uint8Array[] = [];
    for await (const p of body) parts.push(p);
    out.push({ name: entry.name, typeflag: entry.typeflag, data: Buffer.concat(parts), mode: entry.mode, pax: entry.pax });
  }
  return out;
}
