import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "meta/index": "src/meta/index.ts",
    "apis/v1/index": "src/apis/v1/index.ts",
    "k8s/index": "src/k8s/index.ts",
    "oci/index": "src/oci/index.ts",
    "snapshot/index": "src/snapshot/index.ts",
    "testing/index": "src/testing/index.ts",
    "cli/main": "src/cli/main.ts",
  },
  format: ["esm"],
  target: "node20",
  dts: true,
  clean: true,
  splitting: true,
  treeshake: true,
  sourcemap: false,
});
