import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("./index.ts", import.meta.url));

/** The packages the entry loads when imported: its static import graph's external imports (dynamic ones load only when called). */
async function loadedPackages(): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind === "dynamic-import") continue;
      if (imported.external) packages.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(Object.keys(metafile.inputs).find((file) => entry.endsWith(file)) ?? "");
  return [...packages].sort();
}

describe("./kubelet", () => {
  it("loads neither @kubernetes/client-node, nor zod, nor yaml: only Node's own modules, and not node:http", async () => {
    // node:http is taken with process.getBuiltinModule: an ES import of it loads Node's undici bundle.
    expect(await loadedPackages()).toEqual(["node:fs", "node:fs/promises", "node:https", "node:os", "node:path"]);
  }, 30_000);
});
