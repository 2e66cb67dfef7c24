import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import type { SparseExtent } from "../codec/sparse-map.js";

/** The file system's block: data extents are read and compared in whole blocks. */
export const BLOCK = 4096;

const SEEK = `
import os, sys, json
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
out, at = [], 0
while at < size:
    try:
        start = os.lseek(fd, at, os.SEEK_DATA)
    except OSError:
        break
    end = os.lseek(fd, start, os.SEEK_HOLE)
    out.append([start, end])
    at = end
print(json.dumps(out))
`;

/** The data extents of a file as the kernel reports them (`SEEK_DATA`/`SEEK_HOLE`, through python3), as `[start, end)` pairs. */
export function seekDataExtents(path: string): [number, number][] {
  return JSON.parse(execFileSync("python3", ["-c", SEEK, path], { encoding: "utf8" })) as [number, number][];
}

/** `extents` as the kernel would report them for a file of `size` bytes: in whole blocks, touching ones joined. */
export function blockExtents(extents: readonly SparseExtent[], size: number): [number, number][] {
  const out: [number, number][] = [];
  for (const { offset, length } of extents) {
    if (length === 0) continue;
    const start = Math.floor(offset / BLOCK) * BLOCK;
    const end = Math.min(size, Math.ceil((offset + length) / BLOCK) * BLOCK);
    const last = out.at(-1);
    if (last !== undefined && last[1] >= start) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** Bytes the file takes on disk (`st_blocks` × 512). */
export const allocatedBytes = (path: string): number => statSync(path).blocks * 512;
