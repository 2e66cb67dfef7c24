import { nodeZstd } from "./node-zstd.js";
import { readFrameHeader } from "./zstd-header.js";

/**
 * A frame Node writes without a pledged size: no content size, level 3's 2 MiB window. The stream
 * encoder never pledges; `zstdCompress` does from Node 26 on.
 */
export const unpledged = (data: Uint8Array): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const encoder = nodeZstd().createZstdCompress({});
    const parts: Buffer[] = [];
    encoder.on("data", (part: Buffer) => parts.push(part));
    encoder.once("error", reject);
    encoder.once("end", () => {
      const frame = Buffer.concat(parts);
      const header = readFrameHeader(frame);
      if (header?.contentSize !== undefined) reject(new Error(`the encoder pledged ${header.contentSize} bytes`));
      else resolve(frame);
    });
    encoder.end(data);
  });
