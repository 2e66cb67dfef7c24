import type { Transform } from "node:stream";

/** The options of Node's zstd calls that the snapshot codec uses. */
export interface NodeZstdOptions {
  /** Size of each output buffer Node allocates. */
  readonly chunkSize?: number;
  /** One-shot calls fail with `ERR_BUFFER_TOO_LARGE` past this many output bytes. */
  readonly maxOutputLength?: number;
  /** The input size; the frame header then declares it. */
  readonly pledgedSrcSize?: number;
  /** `zlib.constants.ZSTD_*` parameters. */
  readonly params?: Readonly<Record<number, number>>;
}

type Callback = (err: Error | null, out: Buffer) => void;

/** Node's zstd binding (Node 22.15 and later), typed here because the project's `@types/node` predates it. */
interface NodeZstd {
  zstdCompress(data: Uint8Array, options: NodeZstdOptions, callback: Callback): void;
  zstdDecompress(data: Uint8Array, options: NodeZstdOptions, callback: Callback): void;
  createZstdCompress(options: NodeZstdOptions): Transform;
  createZstdDecompress(options: NodeZstdOptions): Transform;
  readonly constants: {
    readonly ZSTD_c_compressionLevel: number;
    readonly ZSTD_d_windowLogMax: number;
  };
}

/**
 * Node's zstd binding; throws on a Node without it (below 22.15, outside the supported engines).
 * `node:zlib` is loaded on the first call, so a v1 push or pull (no zstd) never loads it.
 */
export function nodeZstd(): NodeZstd {
  const binding = process.getBuiltinModule("node:zlib") as unknown as Partial<NodeZstd>;
  if (typeof binding.zstdCompress !== "function") {
    throw new Error(`zstd needs Node 22.15 or later (node:zlib zstd), this is ${process.version}`);
  }
  return binding as NodeZstd;
}
