import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { nodeVerdict, SUPPORTED_NODE } from "../src/internal/supported-node.js";
import { KUBERNETES_VERSION, KUBERNETES_VERSIONS } from "../src/testing/index.js";

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
  refusedZod: string[];
  peerFloors: string[];
  admitted: Record<string, string[]>;
  mainRun: { node: string; clientNode: string; kubernetes: string };
  integration: string[];
  kubernetes: string[];
  kubernetesIntegration: string[];
};
const lock = read("package-lock.json") as { packages: Record<string, { version: string }> };
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

// Each peer version the ranges admit is one CI runs: the floor of each range line and the newest patch of
// each admitted minor, among the versions npm published (matrix.json's `admitted`, which matrix.sh checks
// against npm's list).
describe("the peer versions the ranges admit and the versions CI installs", () => {
  const floors = new Map(matrix.peerFloors.map((spec) => [spec.slice(0, spec.lastIndexOf("@")), spec.slice(spec.lastIndexOf("@") + 1)]));
  const locked = (name: string): string => lock.packages[`node_modules/${name}`]?.version ?? "";
  /** What the matrix installs of `name`: the locked version, each line's newest (client-node) and its floor cell. */
  const installed = (name: string): string[] => {
    const published = matrix.admitted[name] ?? [];
    const lines = name === "@kubernetes/client-node" ? matrix.clientNode.map((line) => semver.maxSatisfying(published, line) ?? line) : [];
    return [locked(name), ...lines, ...(floors.has(name) ? [floors.get(name) as string] : [])];
  };

  it.each(["zod", "@kubernetes/client-node"])("%s: admitted is exactly the published versions inside the range", (name) => {
    const range = pkg.peerDependencies[name] ?? "";
    expect((matrix.admitted[name] ?? []).filter((v) => !semver.satisfies(v, range))).toEqual([]);
    expect(matrix.admitted[name]?.length).toBeGreaterThan(0);
  });

  it.each(["zod", "@kubernetes/client-node"])(
    "%s: the floor of every range line and the newest patch of every minor are installed",
    (name) => {
      const range = pkg.peerDependencies[name] ?? "";
      const published = matrix.admitted[name] ?? [];
      const lineFloors = range.split("||").map((line) => semver.minVersion(line.trim())?.version);
      const minors = [...new Set(published.map((v) => `${semver.major(v)}.${semver.minor(v)}`))];
      const newest = minors.map((minor) => semver.maxSatisfying(published, `~${minor}.0`));
      const proven = installed(name);
      expect([...lineFloors, ...newest].filter((v) => v === undefined || v === null || !proven.includes(v))).toEqual([]);
    },
  );

  it("the zod range refuses what matrix.sh proves refused, and starts where the matrix's floor is", () => {
    const range = pkg.peerDependencies.zod ?? "";
    for (const version of matrix.refusedZod) expect(semver.satisfies(version, range), version).toBe(false);
    expect(semver.minVersion(range)?.version).toBe(floors.get("zod"));
  });
});

// scripts/ci/matrix.sh runs the integration suite's CRD, CEL and patch files on every Kubernetes release the
// control plane supports; the main run (npm test) is the default release.
describe("the Kubernetes matrix and the control plane's releases", () => {
  it("is exactly KUBERNETES_VERSIONS, one patch per minor, with the default release as the main run", () => {
    expect(matrix.kubernetes).toEqual([...KUBERNETES_VERSIONS]);
    expect(matrix.kubernetes.map((v) => `${semver.major(v)}.${semver.minor(v)}`)).toEqual(["1.35", "1.36", "1.37"]);
    expect(matrix.mainRun.kubernetes).toBe(KUBERNETES_VERSION);
  });

  it("runs the files that install the CRDs, check the CEL rules and server verdicts, land patches, the virtual kubelet's writes and watch", () => {
    expect(matrix.kubernetesIntegration).toEqual([
      "test/integration/controlplane.test.ts",
      "test/integration/k8s-kubelet-writes.test.ts",
      "test/integration/k8s-fresh-plane.test.ts",
      "test/integration/k8s-patch-zero-values.test.ts",
      "test/integration/k8s-patch.test.ts",
      "test/integration/k8s-release-seat.test.ts",
      "test/integration/k8s-typed-clients.test.ts",
      "test/integration/k8s-virtual-node.test.ts",
      "test/integration/k8s-watch-restart.test.ts",
      "test/integration/k8s-watch.test.ts",
      "test/integration/schema-vs-server.test.ts",
    ]);
    const missing = [...matrix.integration, ...matrix.kubernetesIntegration].filter((file) => !existsSync(join(root, file)));
    expect(missing).toEqual([]);
  });
});

describe("the import-time Node check (src/internal/supported-node.ts)", () => {
  it("states exactly package.json's engines", () => {
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
  });

  it.each(["22.19.0", "22.23.5", "24.0.0", "24.22.3", "26.0.0", "26.12.1"])("admits Node %s silently", (version) => {
    expect(nodeVerdict(version)).toBeUndefined();
  });

  it("refuses below the floor and only warns above it, agreeing with semver on engines", () => {
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
      "27.0.0",
    ];
    const verdicts = versions.map((v) => {
      const verdict = nodeVerdict(v);
      return verdict === undefined ? "ok" : Object.keys(verdict)[0];
    });
    expect(verdicts).toEqual(["refuse", "refuse", "refuse", "refuse", "refuse", "refuse", "ok", "warn", "ok", "ok", "warn", "ok", "warn"]);
    expect(versions.filter((v, i) => (verdicts[i] === "ok") !== semver.satisfies(v, pkg.engines.node))).toEqual([]);
  });

  it("says it in one line naming the versions", () => {
    expect(nodeVerdict("v20.20.2")).toEqual({
      refuse: "@cocoonstack/cocoon-common needs Node ^22.19.0 || ^24.0.0 || ^26.0.0; this is Node 20.20.2.",
    });
    expect(nodeVerdict("27.1.0")).toEqual({
      warn: "@cocoonstack/cocoon-common is proven on Node ^22.19.0 || ^24.0.0 || ^26.0.0; Node 27.1.0 is not yet proven.",
    });
  });

  it.each([undefined, null, 42, "", "garbage", {}])("never throws, on %p", (value) => {
    expect(() => nodeVerdict(value)).not.toThrow();
  });
});
