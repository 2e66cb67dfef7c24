/**
 * The import fence of eslint.config.js fails at lint time: ./meta never imports the Kubernetes
 * client, zod or src/k8s; ./apis/v1 never imports the client, src/k8s or ./meta; the rest of src/k8s
 * reaches src/k8s/transport/ through its index only; no entry point imports another's internal/
 * folder; src/internal/ imports no entry point; src/internal/go/ is reached through its index only;
 * examples/ import the package by its name, never src/ or test/.
 * Each fixture is linted with
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

  it("refuses, in src/k8s outside src/k8s/transport/, an import of a transport module other than its index", async () => {
    expect(await fenceMessages("imports-transport-module.ts", "src/k8s/clients.ts")).toEqual([
      "'../../../src/k8s/transport/request-agent.js' import is restricted from being used by a pattern. src/k8s reaches its connection tuning through src/k8s/transport/index.js only.",
    ]);
    expect(await fenceMessages("imports-transport-module.ts", "src/k8s/transport/keep-alive-authentication.ts")).toEqual([]);
  });

  it("refuses, in every entry point but ./meta, an import of src/meta/internal/", async () => {
    const refusal =
      "'../../../src/meta/internal/annotation-delta.js' import is restricted from being used by a pattern. An entry point never imports another's internal/ folder: what they share lives in src/internal/.";
    for (const entry of ["k8s", "oci", "snapshot", "testing", "cli"])
      expect(await fenceMessages("imports-other-internal.ts", `src/${entry}/reader.ts`), entry).toEqual([refusal]);
    // ./apis/v1 is refused twice: ./meta's internals are ./meta too.
    expect(await fenceMessages("imports-other-internal.ts", "src/apis/v1/reader.ts")).toEqual([
      "'../../../src/meta/internal/annotation-delta.js' import is restricted from being used by a pattern. ./apis/v1 sits below ./meta: what both need lives in src/internal/.",
      refusal,
    ]);
    expect(await fenceMessages("imports-other-internal.ts", "src/meta/reader.ts")).toEqual([]);
  });

  it("refuses a module of src/internal/go/ other than its index, outside that folder", async () => {
    const refusal =
      "'../../../src/internal/go/strconv.js' import is restricted from being used by a pattern. src/internal/go/ is reached through its index.js only.";
    expect(await fenceMessages("imports-go-module.ts", "src/meta/vmname.ts")).toEqual([refusal]);
    expect(await fenceMessages("imports-go-module.ts", "src/k8s/env.ts")).toEqual([refusal]);
    expect(await fenceMessages("imports-go-module.ts", "src/internal/safe-read.ts")).toEqual([refusal]);
    expect(await fenceMessages("imports-go-module.ts", "src/internal/go/decode.ts")).toEqual([]);
  });

  it("refuses ./meta in src/apis and in src/internal", async () => {
    expect(await fenceMessages("imports-meta-module.ts", "src/apis/v1/cocoonset-spec.ts")).toEqual([
      "'../../../src/meta/keys.js' import is restricted from being used by a pattern. ./apis/v1 sits below ./meta: what both need lives in src/internal/.",
    ]);
    expect(await fenceMessages("imports-meta-module.ts", "src/internal/crd-markers.ts")).toEqual([
      "'../../../src/meta/keys.js' import is restricted from being used by a pattern. src/internal/ sits below every entry point and imports none of them.",
    ]);
    expect(await fenceMessages("imports-meta-module.ts", "src/k8s/env.ts")).toEqual([]);
  });

  it("refuses src/ and test/ in the examples, which import the package by its name", async () => {
    expect(await fenceMessages("imports-meta-module.ts", "examples/operator/reconcile.ts")).toEqual([
      "'../../../src/meta/keys.js' import is restricted from being used by a pattern. An example imports the package by its name (@cocoonstack/cocoon-common/…), as a user does: never src/ or test/.",
    ]);
    expect(await fenceMessages("imports-client-node.ts", "examples/kubelet/node.ts")).toEqual([]);
  });

  it("lets src/k8s and the tests beside src/meta import the client", async () => {
    expect(await fenceMessages("imports-client-node.ts", "src/k8s/pod-reader.ts")).toEqual([]);
    expect(await fenceMessages("imports-client-node.ts", "src/meta/pod-reader.test.ts")).toEqual([]);
  });
});
