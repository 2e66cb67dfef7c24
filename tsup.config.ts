import { rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  "meta/index": "src/meta/index.ts",
  "apis/v1/index": "src/apis/v1/index.ts",
  "k8s/index": "src/k8s/index.ts",
  "kubelet/index": "src/kubelet/index.ts",
  "oci/index": "src/oci/index.ts",
  "snapshot/index": "src/snapshot/index.ts",
  "snapshot/export/index": "src/snapshot/export/index.ts",
  "testing/index": "src/testing/index.ts",
  "cli/main": "src/cli/main.ts",
};

/**
 * Makes the Node check (src/internal/node-check.ts, built as a file of its own) the first import of
 * every entry, so it is evaluated before anything the entry loads. Imported from the sources instead,
 * code splitting would move it into a shared chunk and lose its place in the evaluation order.
 */
async function importNodeCheckFirst(): Promise<void> {
  for (const name of Object.keys(entry)) {
    const file = `dist/${name}.js`;
    const up = "../".repeat(name.split("/").length - 1) || "./";
    const text = await readFile(file, "utf8");
    const shebang = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") + 1) : "";
    await writeFile(file, `${shebang}import "${up}internal/node-check.js";\n${text.slice(shebang.length)}`);
  }
}

/**
 * `./kubelet`'s declarations are bundled on their own: in the shared chunks its types would sit next
 * to `./k8s`'s, which import client-node's, and a virtual kubelet need not install client-node. The
 * two builds run at once, so `dist` is emptied here, once, instead of by tsup's `clean` (each build's
 * would delete the other's declarations).
 */
const { "kubelet/index": kubelet, ...sharedDeclarations } = entry;

export default defineConfig(() => {
  rmSync("dist", { recursive: true, force: true });
  return [
    {
      entry: { ...entry, "internal/node-check": "src/internal/node-check.ts" },
      format: ["esm"],
      target: "node20",
      dts: { entry: sharedDeclarations },
      splitting: true,
      treeshake: true,
      sourcemap: false,
      onSuccess: importNodeCheckFirst,
    },
    { entry: { "kubelet/index": kubelet }, format: ["esm"], target: "node20", dts: { only: true } },
  ];
});
