import type { Transform } from "node:stream";
import zlib from "node:zlib";

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

const binding = zlib as unknown as Partial<NodeZstd>;

/** Node's zstd binding; throws on a Node without it (below 22.15, outside the supported engines). */
export function nodeZstd(): NodeZstd {
  if (typeof binding.zstdCompress !== "function") {
    throw new Error(`zstd needs Node 22.15 or later (node:zlib zstd), this is ${process.version}`);
  }
  return binding as NodeZstd;
}
