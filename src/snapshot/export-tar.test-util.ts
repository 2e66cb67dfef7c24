// Test and bench helper: builds `cocoon snapshot export` tar streams with cocoon's sparse PAX records.
import { Readable } from "node:stream";
import { ByteReader } from "./byte-reader.js";
import { encodeTarHeader, TAR_TRAILER, tarPadding } from "./tar-header.js";
import { readTar } from "./tar-reader.js";

/** One file of an export. */
export interface ExportEntry {
  readonly name: string;
  readonly data: Uint8Array;
  readonly mode?: number;
  readonly pax?: Readonly<Record<string, string>>;
}

const MTIME = Date.parse("2026-07-23T08:00:00Z") / 1000;

/** The `snapshot.json` of an export. */
export function envelopeFile(name: string, id = "snap-1"): ExportEntry {
  const json = { version: 1, config: { id, name, hypervisor: "cloud-hypervisor", cpu: 2, memory: 1 << 30 } };
  return { name: "snapshot.json", data: Buffer.from(JSON.stringify(json)), mode: 0o644 };
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

/** Yields an export tar, header by header, without holding it whole. */
export async function* exportTar(files: readonly ExportEntry[]): AsyncGenerator<Uint8Array> {
  for (const f of files) {
    yield encodeTarHeader({ name: f.name, size: f.data.length, mode: f.mode ?? 0o640, mtime: MTIME, pax: f.pax });
    for (let at = 0; at < f.data.length; at += 1 << 20) yield f.data.subarray(at, at + (1 << 20));
    yield tarPadding(f.data.length);
  }
  yield TAR_TRAILER;
}

/** A Readable over {@link exportTar}. */
export function exportStream(files: readonly ExportEntry[]): Readable {
  return Readable.from(exportTar(files));
}

/** Reads an import tar back into its entries (name, mode, PAX records, bytes). */
export async function readImport(bytes: Uint8Array): Promise<ExportEntry[]> {
  const out: ExportEntry[] = [];
  for await (const { entry, body } of readTar(new ByteReader(Readable.from([bytes])))) {
    const parts: Uint8Array[] = [];
    for await (const p of body) parts.push(p);
    out.push({ name: entry.name, data: Buffer.concat(parts), mode: entry.mode, pax: entry.pax });
  }
  return out;
}
