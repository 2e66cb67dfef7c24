/**
 * Size of each entry point as a user's bundler sees it: esbuild bundles the built entry with its
 * peers external, minified, and gzip measures it. The peer for scale is zod's own bundle, which
 * every entry but `./meta` and `./k8s` loads. Run: npm run bench:size (after npm run build).
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const external = ["zod", "@kubernetes/client-node", "fast-json-patch", "yaml", "node:*"];

async function bundled(entry: string, externals: string[]): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    write: false,
    external: externals,
    logLevel: "error",
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { raw: code.byteLength, gzip: gzipSync(code).byteLength };
}

const peer = await bundled("zod", []);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`${"entry".padEnd(12)} ${"min".padStart(10)} ${"min+gzip".padStart(10)}  vs zod (min+gzip ${kb(peer.gzip)})`);
for (const [name, file] of [
  [".", "dist/index.js"],
  ["./meta", "dist/meta/index.js"],
  ["./apis/v1", "dist/apis/v1/index.js"],
  ["./k8s", "dist/k8s/index.js"],
  ["./oci", "dist/oci/index.js"],
  ["./testing", "dist/testing/index.js"],
] as const) {
  const size = await bundled(file, external);
  console.log(`${name.padEnd(12)} ${kb(size.raw).padStart(10)} ${kb(size.gzip).padStart(10)}  ${(size.gzip / peer.gzip).toFixed(2)}x`);
}
