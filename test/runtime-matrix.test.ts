import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8")) as Record<string, unknown>;
const pkg = read("package.json") as {
  engines: { node: string };
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const matrix = read("scripts/ci/matrix.json") as {
  node: string[];
  clientNode: string[];
  refusedNode: string[];
  refusedClientNode: string[];
  mainRun: { node: string; clientNode: string };
};
const lock = read("package-lock.json") as { packages: Record<string, { version: string }> };
const { refusal } = createRequire(import.meta.url)(join(root, "install-check.cjs")) as { refusal: (version: string) => string | undefined };
const peer = pkg.peerDependencies["@kubernetes/client-node"] ?? "";

// package.json admits exactly what scripts/ci/matrix.sh proves, and refuses what it proves refused.
describe("the runtime matrix and package.json", () => {
  it("engines admits every Node of the matrix and refuses the refused ones", () => {
    expect(matrix.node.filter((v) => !semver.satisfies(v, pkg.engines.node))).toEqual([]);
    expect(matrix.refusedNode.filter((v) => semver.satisfies(v, pkg.engines.node))).toEqual([]);
    // Admitted majors are exactly the matrix's: a new major is proven before it is admitted.
    const majors = (range: string) => range.split("||").map((r) => semver.minVersion(r.trim())?.major);
    expect(majors(pkg.engines.node)).toEqual(matrix.node.map((v) => semver.major(v)));
  });

  it("the peer range is the union of the matrix's client-node lines, and refuses the refused versions", () => {
    expect(semver.validRange(peer)).not.toBeNull();
    expect(peer).toBe(matrix.clientNode.join(" || "));
    for (const spec of matrix.refusedClientNode) expect(semver.intersects(spec, peer), spec).toBe(false);
  });

  it("the main run (.ci/run's npm test) uses the locked client-node, inside its matrix line", () => {
    const locked = lock.packages["node_modules/@kubernetes/client-node"]?.version ?? "";
    expect(semver.satisfies(locked, matrix.mainRun.clientNode)).toBe(true);
    expect(matrix.node).toContain(matrix.mainRun.node);
    expect(matrix.clientNode).toContain(matrix.mainRun.clientNode);
  });
});

describe("install-check.cjs (the preinstall that refuses an unproven Node)", () => {
  it.each(["22.19.0", "22.23.5", "24.0.0", "24.22.3"])("admits Node %s", (version) => {
    expect(refusal(version)).toBeUndefined();
  });

  it("agrees with semver on engines for every version around the bounds", () => {
    const versions = [
      "18.20.0",
      "20.19.0",
      "20.20.2",
      "21.7.3",
      "22.12.0",
      "22.18.9",
      "22.19.0",
      "23.11.1",
      "24.0.0",
      "24.99.0",
      "25.0.0",
      "26.1.0",
    ];
    expect(versions.map((v) => refusal(v) === undefined)).toEqual(versions.map((v) => semver.satisfies(v, pkg.engines.node)));
  });

  it("says why, for Node 20 and for a Node newer than the matrix", () => {
    expect(refusal("20.20.2")).toBe(
      "@cocoonstack/cocoon-common needs Node ^22.19.0 || ^24.0.0; this is Node 20.20.2. Node 20 reached its end of life on 2026-04-30, " +
        "and @kubernetes/client-node 2 (undici 8) needs Node 22.19 or newer. Install Node 22 (22.19 or newer) or Node 24.",
    );
    expect(refusal("v26.1.0")).toBe(
      "@cocoonstack/cocoon-common needs Node ^22.19.0 || ^24.0.0; this is Node v26.1.0. Node 26 is not yet proven by this package's CI matrix. " +
        "Install Node 22 (22.19 or newer) or Node 24.",
    );
  });
});
