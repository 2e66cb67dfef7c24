/**
 * A virtual kubelet's project installs the package without `@kubernetes/client-node`: its
 * declarations of `./kubelet` (and of `./meta`, `./oci`, `./snapshot`) must type-check there
 * strictly, without `skipLibCheck`.
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumer, pkg, tsc, type Consumer } from "./consumer.js";

const program = `
import { keepNode, kubeconfigRequester, reportVM, watchCocoonPods, type KeptNode, type WatchedPod } from "${pkg.name}/kubelet";
import { LifecycleState, VMState, type NodeResourcesInput } from "${pkg.name}/meta";
import { parseReference } from "${pkg.name}/oci";
import { planSnapshotCache, type SnapshotCacheInput } from "${pkg.name}/snapshot";

declare const measured: NodeResourcesInput;
declare const cache: SnapshotCacheInput;

export async function main(signal: AbortSignal): Promise<string[]> {
  const requester = await kubeconfigRequester({ path: "kubeconfig" });
  const kept: KeptNode = await keepNode(requester, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
  const seen: string[] = [kept.node.metadata?.uid ?? "", JSON.stringify(parseReference("ghcr.io/cocoonstack/agent:1.4"))];
  for await (const event of watchCocoonPods(requester, { fieldSelector: "spec.nodeName=cocoon-a", signal })) {
    if (event.type !== "added") continue;
    seen.push(event.object.metadata.name);
    const vm = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
    const { pod } = await reportVM(requester, event.object, { state: LifecycleState.Ready, vm });
    const written: WatchedPod = pod;
    seen.push(written.metadata.name);
  }
  seen.push(String(planSnapshotCache(cache).allocatableBytes));
  return seen;
}
`;

/** The relative declaration files `file` imports, and theirs, `file` first. */
function declarationGraph(file: string, seen = new Set<string>()): Set<string> {
  seen.add(file);
  for (const [, spec = ""] of readFileSync(file, "utf8").matchAll(/(?:from|import) '(\.[^']+)'/g)) {
    const next = resolve(dirname(file), spec.replace(/\.js$/, ".d.ts"));
    if (!seen.has(next)) declarationGraph(next, seen);
  }
  return seen;
}

describe("a virtual kubelet's project without client-node", () => {
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    consumer = await createConsumer("module", [], { clientNode: false });
  }, 240_000);
  afterAll(() => consumer?.dispose());

  it("has no client-node installed", () => {
    expect(existsSync(join(consumer?.dir ?? "", "node_modules/@kubernetes/client-node"))).toBe(false);
  });

  it("type-checks ./kubelet, ./meta, ./oci and ./snapshot strictly, without skipLibCheck", async () => {
    const dir = consumer?.dir ?? "";
    writeFileSync(join(dir, "main.ts"), program);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "es2022", module: "nodenext", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] },
        files: ["main.ts"],
      }),
    );
    await expect(tsc(dir, "-p", ".")).resolves.toBe("");
  }, 120_000);

  it("finds no client-node in dist/kubelet/index.d.ts nor in any declaration file it imports", () => {
    const entry = join(consumer?.dir ?? "", "node_modules", pkg.name, "dist/kubelet/index.d.ts");
    const graph = [...declarationGraph(entry)];
    expect(graph.filter((file) => readFileSync(file, "utf8").includes("'@kubernetes/client-node'"))).toEqual([]);
    expect(graph.length).toBe(1);
  });
});
