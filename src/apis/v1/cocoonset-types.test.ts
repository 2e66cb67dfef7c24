import { describe, expect, it } from "vitest";
import { CocoonSetSpecSchema } from "./cocoonset-spec.js";
import { CocoonSetListSchema, CocoonSetSchema } from "./cocoonset-types.js";
import { cocoonSet, issuesOf, pathsOf } from "./internal/test-fixtures.js";

const IMAGE = "ghcr.io/acme/agent:1";
const RELEASE_MESSAGE = "hibernatePolicy=release requires agent.replicas=0 and no toolboxes";

function parseSpec(spec: Record<string, unknown>) {
  return CocoonSetSchema.safeParse(cocoonSet(spec));
}

/** Sets `value` at a dotted path inside a fresh valid spec (numeric segments index arrays). */
function specWith(path: string, value: unknown): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    agent: { image: IMAGE, envFrom: [{ configMapRef: { name: "cm" } }], resources: { claims: [{ name: "gpu" }] } },
    toolboxes: [{ name: "browser" }],
  };
  const keys = path.split(".");
  let node = spec;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1) ?? "";
  if (value === undefined) delete node[last];
  else node[last] = value;
  return spec;
}

describe("CocoonSetSchema defaults (go-contract §1.4)", () => {
  it("fills every default of a minimal spec", () => {
    const parsed = CocoonSetSchema.parse(cocoonSet({ agent: { image: IMAGE } }));
    expect(parsed.spec).toEqual({
      snapshotPolicy: "always",
      hibernatePolicy: "retain",
      nodePool: "default",
      agent: { replicas: 0, image: IMAGE, mode: "clone", os: "linux", backend: "cloud-hypervisor" },
    });
  });

  it("fills defaults inside array items", () => {
    const parsed = CocoonSetSchema.parse(
      cocoonSet({
        agent: { image: IMAGE, envFrom: [{ configMapRef: {} }, { secretRef: { optional: true } }, { prefix: "X_" }] },
        toolboxes: [{ name: "browser" }, { name: "db", mode: "static", os: "windows" }],
      }),
    );
    expect(parsed.spec?.agent.envFrom).toEqual([
      { configMapRef: { name: "" } },
      { secretRef: { name: "", optional: true } },
      { prefix: "X_" },
    ]);
    expect(parsed.spec?.toolboxes).toEqual([
      { name: "browser", mode: "run", os: "linux", backend: "cloud-hypervisor" },
      { name: "db", mode: "static", os: "windows", backend: "cloud-hypervisor" },
    ]);
  });

  it.each([
    ["snapshotPolicy", "never"],
    ["hibernatePolicy", "release"],
    ["nodePool", "gpu"],
    ["agent.mode", "run"],
    ["agent.os", "android"],
    ["agent.backend", "firecracker"],
    ["toolboxes.0.mode", "clone"],
  ])("keeps an explicit %s", (path, value) => {
    const spec = specWith(path, value);
    if (path === "hibernatePolicy") delete spec.toolboxes;
    const parsed = parseSpec(spec);
    expect(parsed.success).toBe(true);
    let node: unknown = parsed.data?.spec;
    for (const key of path.split(".")) node = (node as Record<string, unknown>)[key];
    expect(node).toBe(value);
  });

  it("does not default an absent spec (spec is optional in the CRD)", () => {
    const parsed = CocoonSetSchema.parse(cocoonSet());
    expect(parsed.spec).toBeUndefined();
    expect(parsed).toEqual(cocoonSet());
  });
});

describe("CocoonSetSchema rejections name the field path", () => {
  it.each([
    ["snapshotPolicy", "sometimes"],
    ["hibernatePolicy", "Release"],
    ["nodePool", 7],
    ["suspend", "yes"],
    ["snapshotCompatibilityClass", "x".repeat(64)],
    ["snapshotCompatibilityClass", "-leading-dash"],
    ["snapshotCompatibilityClass", "has space"],
    ["agent.image", ""],
    ["agent.image", undefined],
    ["agent.mode", "fork"],
    ["agent.os", "freebsd"],
    ["agent.os", "Linux"],
    ["agent.backend", "qemu"],
    ["agent.connType", "telnet"],
    ["agent.connType", ""],
    ["agent.replicas", -1],
    ["agent.replicas", 1.5],
    ["agent.replicas", "1"],
    ["agent.probePort", -1],
    ["agent.probePort", 65536],
    ["agent.storage", "1K"],
    ["agent.storage", 1.5],
    ["agent.storage", ""],
    ["agent.resources.limits", { cpu: "two" }],
    ["agent.resources.claims", [{ name: "gpu" }, { name: "gpu" }]],
    ["agent.resources.claims", [{ request: "r" }]],
    ["agent.envFrom", [{ configMapRef: { name: 1 } }]],
    ["agent.serviceAccountName", false],
    ["toolboxes.0.name", "Browser"],
    ["toolboxes.0.name", "-browser"],
    ["toolboxes.0.name", ""],
    ["toolboxes.0.name", undefined],
    ["toolboxes.0.mode", "daemon"],
    ["toolboxes.0.vncPort", 65536],
    ["toolboxes.0.os", "beos"],
  ])("rejects %s = %j", (path, value) => {
    const result = parseSpec(specWith(path, value));
    expect(result.success).toBe(false);
    // Besides the field, a blocking error (type, required, enum, too long) adds the root notice "".
    expect(
      pathsOf(result)
        .filter((p) => p !== "")
        .every((p) => p.startsWith(`spec.${path}`)),
    ).toBe(true);
  });

  it("reports the exact path of an enum violation inside an array item", () => {
    expect(pathsOf(parseSpec(specWith("toolboxes.0.mode", "daemon")))).toEqual(["spec.toolboxes.0.mode", ""]);
  });

  it("reports a duplicate list-map key at the later item", () => {
    const result = parseSpec(specWith("agent.resources.claims", [{ name: "a" }, { name: "b" }, { name: "a" }]));
    expect(issuesOf(result)).toEqual([{ path: ["spec", "agent", "resources", "claims", 2], message: 'Duplicate value: {"name":"a"}' }]);
  });

  it("requires spec.agent", () => {
    expect(pathsOf(parseSpec({}))).toEqual(["spec.agent", ""]);
  });

  it.each([
    ["apiVersion", "cocoonset.cocoonstack.io/v2"],
    ["kind", "CocoonHibernation"],
    ["apiVersion", undefined],
    ["kind", undefined],
  ])("rejects %s = %j", (key, value) => {
    const result = CocoonSetSchema.safeParse({ ...cocoonSet({ agent: { image: IMAGE } }), [key]: value });
    expect(pathsOf(result)).toEqual([key, ""]);
  });

  it("requires metadata", () => {
    const { metadata: _metadata, ...rest } = cocoonSet({ agent: { image: IMAGE } });
    expect(pathsOf(CocoonSetSchema.safeParse(rest))).toEqual(["metadata", ""]);
  });

  it("accepts the boundaries", () => {
    const spec = {
      snapshotCompatibilityClass: "a".repeat(63),
      agent: { image: IMAGE, replicas: 0, probePort: 65535, storage: 0 },
      toolboxes: [{ name: "0", vncPort: 0, probePort: 0 }],
    };
    expect(parseSpec(spec).success).toBe(true);
  });
});

describe("CocoonSetSchema status", () => {
  const withStatus = (status: unknown) => CocoonSetSchema.safeParse(cocoonSet({ agent: { image: IMAGE } }, { status }));

  it("accepts what the operator writes, counters included", () => {
    const status = {
      observedGeneration: 4,
      phase: "Running",
      readyAgents: 0,
      desiredAgents: 1,
      readyToolboxes: 0,
      desiredToolboxes: 0,
      agents: [{ slot: 0, role: "main", podName: "demo-0", vmName: "vk-default-demo-0", vmID: "1", ip: "10.0.0.2", phase: "Running" }],
      toolboxes: [{ name: "browser", connType: "vnc", vncPort: 70000 }],
    };
    expect(withStatus(status).data?.status).toEqual(status);
  });

  it.each([
    ["phase", { phase: "Sleeping" }, ["status.phase", ""]],
    ["a fractional counter", { readyAgents: 1.5 }, ["status.readyAgents", ""]],
    ["an agent without role", { agents: [{ slot: 0 }] }, ["status.agents.0.role", ""]],
    ["an agent without slot", { agents: [{ role: "main" }] }, ["status.agents.0.slot", ""]],
    [
      "a duplicate agent slot",
      {
        agents: [
          { slot: 1, role: "a" },
          { slot: 1, role: "b" },
        ],
      },
      ["status.agents.1"],
    ],
    ["a toolbox without name", { toolboxes: [{ podName: "p" }] }, ["status.toolboxes.0.name", ""]],
    ["a duplicate toolbox name", { toolboxes: [{ name: "t" }, { name: "t" }] }, ["status.toolboxes.1"]],
    ["a toolbox connType", { toolboxes: [{ name: "t", connType: "telnet" }] }, ["status.toolboxes.0.connType", ""]],
  ])("rejects %s", (_name, status, paths) => {
    expect(pathsOf(withStatus(status))).toEqual(paths);
  });
});

describe("CocoonSetSchema prunes unknown fields at every level", () => {
  it("drops them silently, like structural pruning", () => {
    const input = {
      ...cocoonSet({
        extra: 1,
        agent: {
          image: IMAGE,
          extra: 1,
          envFrom: [{ extra: 1, configMapRef: { name: "cm", extra: 1 }, secretRef: { name: "s", extra: 1 } }],
          resources: { extra: 1, claims: [{ name: "gpu", extra: 1 }], limits: { cpu: "1" } },
        },
        toolboxes: [{ name: "browser", extra: 1, resources: { requests: { memory: "1Gi" }, extra: 1 } }],
      }),
      status: {
        extra: 1,
        agents: [{ slot: 0, role: "main", extra: 1 }],
        toolboxes: [{ name: "browser", extra: 1 }],
        conditions: [{ type: "Ready", status: "True", reason: "Ok", message: "", lastTransitionTime: "2026-08-12T10:00:00Z", extra: 1 }],
      },
      extra: 1,
    };
    const parsed = CocoonSetSchema.parse(input);
    expect(JSON.stringify(parsed)).not.toContain("extra");
    expect(parsed.spec?.agent.envFrom).toEqual([{ configMapRef: { name: "cm" }, secretRef: { name: "s" } }]);
    expect(parsed.status?.conditions?.[0]).toEqual({
      type: "Ready",
      status: "True",
      reason: "Ok",
      message: "",
      lastTransitionTime: "2026-08-12T10:00:00Z",
    });
  });

  it("keeps unknown metadata keys (metadata is permissive)", () => {
    const parsed = CocoonSetSchema.parse({ ...cocoonSet(), metadata: { name: "demo", creationTimestamp: "2026-08-12T10:00:00Z" } });
    expect(parsed.metadata).toEqual({ name: "demo", creationTimestamp: "2026-08-12T10:00:00Z" });
  });
});

// go-contract §1.4, CEL rule 1 (create and update, after defaulting).
describe("CEL: hibernatePolicy=release requires agent.replicas=0 and no toolboxes", () => {
  const toolbox = [{ name: "browser" }];
  it.each([
    ["absent→retain, replicas 3, toolboxes 1", undefined, 3, toolbox, true],
    ["retain, replicas 3, toolboxes 1", "retain", 3, toolbox, true],
    ["retain, replicas absent, toolboxes absent", "retain", undefined, undefined, true],
    ["release, replicas 0, toolboxes absent", "release", 0, undefined, true],
    ["release, replicas absent, toolboxes absent", "release", undefined, undefined, true],
    ["release, replicas 0, toolboxes []", "release", 0, [], true],
    ["release, replicas absent, toolboxes []", "release", undefined, [], true],
    ["release, replicas 1, toolboxes absent", "release", 1, undefined, false],
    ["release, replicas 2, toolboxes 1", "release", 2, toolbox, false],
    ["release, replicas 0, toolboxes 1", "release", 0, toolbox, false],
    ["release, replicas absent, toolboxes 1", "release", undefined, toolbox, false],
  ])("%s", (_name, hibernatePolicy, replicas, toolboxes, ok) => {
    const spec = {
      ...(hibernatePolicy === undefined ? {} : { hibernatePolicy }),
      agent: { image: IMAGE, ...(replicas === undefined ? {} : { replicas }) },
      ...(toolboxes === undefined ? {} : { toolboxes }),
    };
    const result = parseSpec(spec);
    expect(issuesOf(result)).toEqual(ok ? [] : [{ path: ["spec"], message: RELEASE_MESSAGE }]);
    expect(issuesOf(CocoonSetSpecSchema.safeParse(spec))).toEqual(ok ? [] : [{ path: [], message: RELEASE_MESSAGE }]);
  });
});

// kube-apiserver 1.36 and newer enforce `format: int32` (test/integration/schema-vs-server.test.ts).
describe("int32 fields stay within Go's int32", () => {
  it.each([
    ["agent.replicas", 2 ** 31 - 1, []],
    ["agent.replicas", 2 ** 31, [{ path: ["spec", "agent", "replicas"], message: "Too big: expected number to be <=2147483647" }]],
    [
      "toolboxes.0.probePort",
      -(2 ** 31) - 1,
      [
        { path: ["spec", "toolboxes", 0, "probePort"], message: "Too small: expected number to be >=-2147483648" },
        { path: ["spec", "toolboxes", 0, "probePort"], message: "Too small: expected number to be >=0" },
      ],
    ],
  ] as const)("%s = %d", (path, value, issues) => {
    expect(issuesOf(parseSpec(specWith(path, value)))).toEqual(issues);
  });

  it("refuses a status counter of 2^31 and -2^31 - 1, and takes -2^31", () => {
    const withStatus = (desiredAgents: number) =>
      CocoonSetSchema.safeParse(cocoonSet({ agent: { image: IMAGE } }, { status: { desiredAgents } }));
    expect(issuesOf(withStatus(2 ** 31))).toEqual([
      { path: ["status", "desiredAgents"], message: "Too big: expected number to be <=2147483647" },
    ]);
    expect(issuesOf(withStatus(-(2 ** 31) - 1))).toEqual([
      { path: ["status", "desiredAgents"], message: "Too small: expected number to be >=-2147483648" },
    ]);
    expect(withStatus(-(2 ** 31)).success).toBe(true);
  });

  it("does not keep the CEL rule from running, as the apiserver's format error does not", () => {
    expect(issuesOf(parseSpec({ hibernatePolicy: "release", agent: { image: IMAGE, replicas: 2 ** 31 } }))).toEqual([
      { path: ["spec", "agent", "replicas"], message: "Too big: expected number to be <=2147483647" },
      { path: ["spec"], message: RELEASE_MESSAGE },
    ]);
  });
});

// Go cocoonset_types_test.go: TestCocoonSetSpecSnapshotCompatibilityClassJSON.
describe("snapshotCompatibilityClass on the wire", () => {
  it("is written when set", () => {
    const spec = CocoonSetSpecSchema.parse({ snapshotCompatibilityClass: "n2-cascade-lake-v1", agent: { image: IMAGE } });
    expect(JSON.stringify(spec)).toContain('"snapshotCompatibilityClass":"n2-cascade-lake-v1"');
  });

  it("is omitted when not set", () => {
    const spec = CocoonSetSpecSchema.parse({ agent: { image: IMAGE } });
    expect(JSON.stringify(spec)).not.toContain("snapshotCompatibilityClass");
  });

  it('keeps an explicit "" (valid for the pattern; unlike Go, it is then "set")', () => {
    const spec = CocoonSetSpecSchema.parse({ snapshotCompatibilityClass: "", agent: { image: IMAGE } });
    expect(JSON.stringify(spec)).toContain('"snapshotCompatibilityClass":""');
  });
});

describe("CocoonSetListSchema", () => {
  it("parses every item, defaults included", () => {
    const list = CocoonSetListSchema.parse({
      apiVersion: "cocoonset.cocoonstack.io/v1",
      kind: "CocoonSetList",
      metadata: { resourceVersion: "7" },
      items: [cocoonSet({ agent: { image: IMAGE } })],
    });
    expect(list.items[0]?.spec?.agent.mode).toBe("clone");
  });

  it("names the failing item", () => {
    const result = CocoonSetListSchema.safeParse({
      apiVersion: "cocoonset.cocoonstack.io/v1",
      kind: "CocoonSetList",
      items: [cocoonSet({ agent: { image: IMAGE } }), cocoonSet({ agent: { image: "" } })],
    });
    expect(pathsOf(result)).toEqual(["items.1.spec.agent.image"]);
  });
});
