/**
 * The import fence of eslint.config.js fails at lint time: ./meta never imports the Kubernetes
 * client, zod or src/k8s; ./apis/v1 never imports the client or src/k8s. Each fixture is linted with
 * the real config as if it sat at the given path (type-aware rules off: the fence needs no types).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [tseslint.configs.disableTypeChecked, { languageOptions: { parserOptions: { projectService: false } } }],
});

/** The `no-restricted-imports` messages for `fixture` linted at `asPath`. */
async function fenceMessages(fixture: string, asPath: string): Promise<string[]> {
  const text = readFileSync(path.join(root, "test/fixtures/lint-fence", fixture), "utf8");
  const [result] = await eslint.lintText(text, { filePath: path.join(root, asPath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the import fence (eslint.config.js)", () => {
  it("refuses @kubernetes/client-node in src/meta and in src/apis", async () => {
    const refusal =
      "'@kubernetes/client-node' import is restricted from being used. Only src/k8s (and what builds on it) may load the Kubernetes client.";
    expect(await fenceMessages("imports-client-node.ts", "src/meta/pod-reader.ts")).toEqual([refusal]);
    expect(await fenceMessages("imports-client-node.ts", "src/apis/v1/pod-reader.ts")).toEqual([refusal]);
  });

  it("refuses zod in src/meta and allows it in src/apis", async () => {
    expect(await fenceMessages("imports-zod.ts", "src/meta/name.ts")).toEqual([
      "'zod' import is restricted from being used. ./meta loads nothing at run time; zod belongs to ./apis/v1.",
    ]);
    expect(await fenceMessages("imports-zod.ts", "src/apis/v1/name.ts")).toEqual([]);
  });

  it("refuses a relative import into src/k8s from src/meta", async () => {
    expect(await fenceMessages("imports-k8s-module.ts", "src/meta/gone.ts")).toEqual([
      "'../../../src/k8s/api-errors.js' import is restricted from being used by a pattern. src/k8s loads the Kubernetes client; ./meta and ./apis/v1 must not.",
    ]);
  });

  it("lets src/k8s and the tests beside src/meta import the client", async () => {
    expect(await fenceMessages("imports-client-node.ts", "src/k8s/pod-reader.ts")).toEqual([]);
    expect(await fenceMessages("imports-client-node.ts", "src/meta/pod-reader.test.ts")).toEqual([]);
  });
});
