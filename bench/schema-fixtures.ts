/**
 * The CocoonSets bench:schemas parses: a realistic one, a large one and invalid ones. Each says what
 * the apiserver makes of it, and whether ajv (which runs no CEL) can see why it is invalid.
 */

/** One input of the schema bench and its expected verdicts. */
export interface SchemaFixture {
  readonly name: string;
  readonly value: object;
  /** What zod (and the apiserver) says: valid or not. */
  readonly valid: boolean;
  /** Set when ajv cannot reach zod's verdict; says why. */
  readonly ajvBlindTo?: string;
}

/** The name of a field no schema declares, set in the agent and some toolboxes: dropped by pruning, on zod's side and ajv's alike. */
export const UNKNOWN_FIELD = "legacyField";
const UNKNOWN = { [UNKNOWN_FIELD]: "dropped by pruning" };

const toolbox = (i: number) =>
  i % 3 === 2
    ? { name: `win-${i}`, image: "ghcr.io/cocoonstack/win:11", os: "windows", mode: "static", staticIP: `10.0.${i >> 8}.${i & 255}` }
    : { name: `browser-${i}`, image: "ghcr.io/cocoonstack/browser:2", os: "linux", vncPort: 5900 + i, ...UNKNOWN };

/** A typical CocoonSet as the operator reads it back: agent, `toolboxCount` toolboxes, status. */
function cocoonSet(toolboxCount: number) {
  const toolboxes = Array.from({ length: toolboxCount }, (_, i) => toolbox(i));
  return {
    apiVersion: "cocoonset.cocoonstack.io/v1",
    kind: "CocoonSet",
    metadata: { name: "demo", namespace: "team-a", labels: { app: "demo" }, generation: 7, resourceVersion: "4711" },
    spec: {
      snapshotPolicy: "main-only",
      nodePool: "gpu",
      agent: {
        image: "ghcr.io/cocoonstack/agent:1.4",
        replicas: 2,
        storage: "20Gi",
        resources: { requests: { cpu: "2", memory: "4Gi" }, limits: { cpu: 4, memory: "8Gi" } },
        envFrom: [{ secretRef: { name: "agent-env" } }],
        ...UNKNOWN,
      },
      toolboxes,
    },
    status: {
      observedGeneration: 7,
      phase: "Running",
      readyAgents: 3,
      desiredAgents: 3,
      readyToolboxes: toolboxCount,
      desiredToolboxes: toolboxCount,
      agents: [0, 1, 2].map((slot) => ({ slot, role: slot === 0 ? "main" : "sub-agent", podName: `demo-${slot}` })),
      toolboxes: toolboxes.map((t, i) => ({ name: t.name, podName: `demo-${t.name}`, ip: `10.1.0.${i + 1}`, phase: "Running" })),
      conditions: [{ type: "Ready", status: "True", reason: "AllReady", message: "", lastTransitionTime: "2026-11-29T10:00:00Z" }],
    },
  };
}

type CocoonSetFixture = ReturnType<typeof cocoonSet>;

/** A copy of the realistic set with `edit` applied to its spec. */
function realisticWith(edit: (spec: CocoonSetFixture["spec"]) => void): CocoonSetFixture {
  const set = structuredClone(cocoonSet(2));
  edit(set.spec);
  return set;
}

/** All fixtures, valid first. */
export const schemaFixtures: readonly SchemaFixture[] = [
  { name: "realistic (agent, 2 toolboxes, status)", value: cocoonSet(2), valid: true },
  { name: "large (50 toolboxes)", value: cocoonSet(50), valid: true },
  {
    name: "invalid: wrong type deep in a toolbox",
    value: realisticWith((spec) => Object.assign(spec.toolboxes[0] ?? {}, { vncPort: "5900" })),
    valid: false,
  },
  {
    name: "invalid: bad enum value",
    value: realisticWith((spec) => Object.assign(spec.toolboxes[1] ?? {}, { os: "beos" })),
    valid: false,
  },
  {
    name: "invalid: CEL rule (release with sub-agents)",
    value: realisticWith((spec) => Object.assign(spec, { hibernatePolicy: "release" })),
    valid: false,
    ajvBlindTo: "the CEL rule",
  },
];
