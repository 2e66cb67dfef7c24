import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CRD_FILES, RBAC_FILES, crdManifests, findPackageRoot, packageVersion, rbacManifests } from "./package-files.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

describe("findPackageRoot", () => {
  it.each([
    { name: "this source file (a file URL)", from: import.meta.url },
    { name: "a path inside dist/cli", from: path.join(repoRoot, "dist", "cli", "main.js") },
    { name: "a shared chunk at the top of dist", from: path.join(repoRoot, "dist", "chunk-ABC.js") },
  ])("finds the repository from $name", ({ from }) => {
    expect(findPackageRoot(from)).toBe(path.resolve(repoRoot));
  });

  it("throws ERR_CLI_INPUT outside the package", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cocoon-root-"));
    try {
      expect(() => findPackageRoot(path.join(dir, "main.js"))).toThrow(expect.objectContaining({ code: "ERR_CLI_INPUT" }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("packageVersion, crdManifests and rbacManifests", () => {
  it("reads the version from package.json", () => {
    expect(packageVersion(repoRoot)).toBe(
      (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version,
    );
  });

  it("reads crds/ in CocoonSet, CocoonHibernation order", () => {
    expect(CRD_FILES).toEqual(["cocoonset.cocoonstack.io_cocoonsets.yaml", "cocoonset.cocoonstack.io_cocoonhibernations.yaml"]);
    expect(crdManifests(repoRoot)).toEqual(CRD_FILES.map((name) => readFileSync(path.join(repoRoot, "crds", name), "utf8")));
  });

  it("reads rbac/ in operator, kubelet order", () => {
    expect(RBAC_FILES).toEqual(["cocoon-operator.clusterrole.yaml", "cocoon-kubelet.clusterrole.yaml"]);
    expect(rbacManifests(repoRoot)).toEqual(RBAC_FILES.map((name) => readFileSync(path.join(repoRoot, "rbac", name), "utf8")));
  });

  it("throws ERR_CLI_INPUT when a manifest is missing", () => {
    expect(() => crdManifests(tmpdir())).toThrow(expect.objectContaining({ code: "ERR_CLI_INPUT" }));
    expect(() => rbacManifests(tmpdir())).toThrow(expect.objectContaining({ code: "ERR_CLI_INPUT" }));
  });
});
