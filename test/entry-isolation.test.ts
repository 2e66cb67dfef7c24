import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

// A resolve hook that refuses every package import outside the allowed list, so a module graph
// that reaches zod or the Kubernetes client fails to load instead of passing by accident.
function loadWith(entry: string, allowed: readonly string[]): string {
  const dist = new URL("../dist/", import.meta.url).href;
  const hooks = `
    import { isBuiltin } from "node:module";
    const allowed = new Set(${JSON.stringify(allowed)});
    export async function resolve(specifier, context, next) {
      // Only imports made by our own dist files count; what an allowed package loads is its business.
      const ours = (context.parentURL ?? "").startsWith(${JSON.stringify(dist)});
      const bare = !/^(\\.|\\/|file:|data:)/.test(specifier) && !isBuiltin(specifier);
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (ours && bare && !allowed.has(name)) throw new Error("forbidden import: " + specifier);
      return next(specifier, context);
    }`;
  const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const script = `const m = await import(${JSON.stringify(`${root}/dist/${entry}`)}); console.log(Object.keys(m).length);`;
  return execFileSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(register)}`, "--input-type=module", "-e", script],
    {
      encoding: "utf8",
    },
  ).trim();
}

describe.skipIf(!existsSync(`${root}/dist/meta/index.js`))("entry point isolation (built dist)", () => {
  it("./meta loads with no package at all in its graph", () => {
    expect(Number(loadWith("meta/index.js", []))).toBeGreaterThan(50);
  });

  it("the root entry loads with zod only, never the Kubernetes client", () => {
    expect(Number(loadWith("index.js", ["zod"]))).toBeGreaterThan(100);
  });

  it("./apis/v1 loads with zod only", () => {
    expect(Number(loadWith("apis/v1/index.js", ["zod"]))).toBeGreaterThan(30);
  });

  it("./k8s loads with the Kubernetes client and fast-json-patch only (zod is loaded lazily by installCRDs)", () => {
    expect(Number(loadWith("k8s/index.js", ["@kubernetes/client-node", "fast-json-patch"]))).toBeGreaterThan(30);
  });

  it("./kubelet loads with no package at all in its graph: no client-node, no zod, no yaml until a kubeconfig is read", () => {
    expect(Number(loadWith("kubelet/index.js", []))).toBeGreaterThan(20);
  });

  it("./oci loads with no package at all in its graph (Node only)", () => {
    expect(Number(loadWith("oci/index.js", []))).toBeGreaterThan(1);
  });

  it("./snapshot loads with no package at all in its graph (zstd is Node's own zlib; snapshot.json's check is generated)", () => {
    expect(Number(loadWith("snapshot/index.js", []))).toBeGreaterThan(5);
  });

  it("./snapshot/export loads zod only (the export format's schemas)", () => {
    expect(Number(loadWith("snapshot/export/index.js", ["zod"]))).toBe(3);
    expect(() => loadWith("snapshot/export/index.js", [])).toThrow(/forbidden import: zod/);
  });

  it("the guard itself refuses a forbidden import", () => {
    expect(() => loadWith("apis/v1/index.js", [])).toThrow(/forbidden import: zod/);
  });
});

describe.skipIf(!existsSync(`${root}/dist/kubelet/index.js`))("Node's undici bundle (built dist)", () => {
  // An ES import of node:http reads its WebSocket, CloseEvent and MessageEvent getters, which load undici.
  const undiciAfter = (entries: readonly string[], then = ""): string => {
    const imports = entries.map((e) => `await import(${JSON.stringify(`${root}/dist/${e}`)});`).join(" ");
    const script = `${imports} ${then} console.log(process.moduleLoadList.includes("NativeModule internal/deps/undici/undici"));`;
    return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim();
  };

  it("is not loaded by what a virtual kubelet imports: ./meta, ./oci, ./snapshot, ./kubelet", () => {
    expect(undiciAfter(["meta/index.js", "oci/index.js", "snapshot/index.js", "kubelet/index.js"])).toBe("false");
  });

  it("is loaded by an ES import of node:http (the check sees it)", () => {
    expect(undiciAfter(["kubelet/index.js"], 'await import("node:http");')).toBe("true");
  });
});
