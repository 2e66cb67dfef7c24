/**
 * Named edge cases of CocoonSet creates, compared on every run whatever the generators draw:
 * bounds at and past their edges, patterns, enums, required fields, quantities, unknown fields,
 * `null`s, every row of the CEL create rule (go-contract §1.4), names and list-map keys.
 *
 * @module
 */
import {
  API_VERSION,
  AgentMode,
  Backend,
  ConnType,
  HibernatePolicy,
  Kind,
  OSType,
  SnapshotPolicy,
  ToolboxMode,
} from "../../../src/apis/v1/index.js";

type Json = Record<string, unknown>;
/** A named input. */
export type EdgeCase = readonly [name: string, input: unknown];

const IMAGE = "img";
const set = (spec: unknown, metadata: Json = { name: "edge" }): Json => ({ apiVersion: API_VERSION, kind: Kind.CocoonSet, metadata, spec });
const agent = (fields: Json): Json => set({ agent: { image: IMAGE, ...fields } });
const toolbox = (fields: Json): Json => set({ agent: { image: IMAGE }, toolboxes: [{ name: "tb", ...fields }] });
const spec = (fields: Json): Json => set({ agent: { image: IMAGE }, ...fields });

const GOOD_QUANTITIES = [
  0,
  1,
  -5,
  1000,
  "0",
  "100",
  "1.5",
  ".5",
  "1.",
  "+1",
  "-1",
  "1Ki",
  "512Mi",
  "1Gi",
  "1Ei",
  "500m",
  "1k",
  "1M",
  "1E",
  "1n",
  "1e3",
  "1E-3",
  "1.5e+2",
];
const BAD_QUANTITIES = ["1K", "1KiB", "", " 1", "1 ", "1.5.5", "e3", "0x10", "Gi", 1.5, -0.5, true, {}, []];

/** Each value of an enum, its wrong-case twin, `""` and a number, at `at(value)`. */
function enumCases(name: string, values: readonly string[], at: (value: unknown) => Json): EdgeCase[] {
  const first = values[0] ?? "";
  return [...values, first.toUpperCase(), "", "other", 1].map((value) => [`${name} = ${JSON.stringify(value)}`, at(value)] as const);
}

/** The 27 combinations of the CEL create rule's inputs: policy × replicas × toolboxes. */
function celRows(): EdgeCase[] {
  const rows: EdgeCase[] = [];
  for (const policy of [undefined, "retain", "release"]) {
    for (const replicas of [undefined, 0, 1]) {
      for (const toolboxes of [undefined, [], [{ name: "tb" }]]) {
        const input = set({
          ...(policy === undefined ? {} : { hibernatePolicy: policy }),
          agent: { image: IMAGE, ...(replicas === undefined ? {} : { replicas }) },
          ...(toolboxes === undefined ? {} : { toolboxes }),
        });
        rows.push([
          `CEL: policy ${policy ?? "absent"}, replicas ${replicas ?? "absent"}, toolboxes ${JSON.stringify(toolboxes) ?? "absent"}`,
          input,
        ]);
      }
    }
  }
  return rows;
}

/** Every named CocoonSet create case. */
export function cocoonSetEdgeCases(): EdgeCase[] {
  return [
    ...[-1, 0, 1, 2, 2147483647, 1.5, "1"].map((v): EdgeCase => [`agent.replicas = ${JSON.stringify(v)}`, agent({ replicas: v })]),
    ...[-1, 0, 65535, 65536].map((v): EdgeCase => [`agent.probePort = ${v}`, agent({ probePort: v })]),
    ...[-1, 0, 65535, 65536].map((v): EdgeCase => [`toolbox.vncPort = ${v}`, toolbox({ vncPort: v })]),
    ...[-1, 0, 65535, 65536].map((v): EdgeCase => [`toolbox.probePort = ${v}`, toolbox({ probePort: v })]),
    ...["browser", "0", "a-b", "x".repeat(64), "Browser", "-a", "a-", "a_b", "a.b", "", 5].map((v): EdgeCase => [
      `toolbox.name = ${JSON.stringify(v)}`,
      toolbox({ name: v }),
    ]),
    ["toolbox.name missing", set({ agent: { image: IMAGE }, toolboxes: [{ image: "x" }] })],
    ...["", "c".repeat(63), "c".repeat(64), `${"c".repeat(63)}-`, "-a", "a-", "a_b.C-9z", "a b", "😀", "😀".repeat(40)].map(
      (v): EdgeCase => [
        `snapshotCompatibilityClass = ${JSON.stringify(v.length > 20 ? `${v.slice(0, 4)}…(${v.length})` : v)}`,
        spec({ snapshotCompatibilityClass: v }),
      ],
    ),
    ...enumCases("snapshotPolicy", Object.values(SnapshotPolicy), (v) => spec({ snapshotPolicy: v })),
    ...enumCases("hibernatePolicy", Object.values(HibernatePolicy), (v) => spec({ hibernatePolicy: v })),
    ...enumCases("agent.mode", Object.values(AgentMode), (v) => agent({ mode: v })),
    ...enumCases("agent.os", Object.values(OSType), (v) => agent({ os: v })),
    ...enumCases("agent.backend", Object.values(Backend), (v) => agent({ backend: v })),
    ...enumCases("agent.connType", Object.values(ConnType), (v) => agent({ connType: v })),
    ...enumCases("toolbox.mode", Object.values(ToolboxMode), (v) => toolbox({ mode: v })),
    ...enumCases("toolbox.os", Object.values(OSType), (v) => toolbox({ os: v })),
    ["spec missing", set(undefined)],
    ["spec.agent missing", set({})],
    ["agent.image missing", set({ agent: {} })],
    ["agent.image empty", agent({ image: "" })],
    ...[...GOOD_QUANTITIES, ...BAD_QUANTITIES].map((v): EdgeCase => [`agent.storage = ${JSON.stringify(v)}`, agent({ storage: v })]),
    ...[...GOOD_QUANTITIES, ...BAD_QUANTITIES].map((v): EdgeCase => [
      `toolbox.resources.limits.cpu = ${JSON.stringify(v)}`,
      toolbox({ resources: { limits: { cpu: v } } }),
    ]),
    [
      "unknown fields at every level",
      {
        ...set({
          extra: 1,
          agent: {
            image: IMAGE,
            Image: "x",
            resources: { extra: 1, claims: [{ name: "a", extra: 1 }] },
            envFrom: [{ extra: 1, configMapRef: { name: "cm", extra: 1 } }],
          },
          toolboxes: [{ name: "tb", extra: { deep: [1] } }],
        }),
        extra: 1,
      },
    ],
    [
      "nulls everywhere they are pruned",
      set({
        snapshotPolicy: null,
        nodeName: null,
        toolboxes: null,
        agent: {
          image: IMAGE,
          replicas: null,
          storage: null,
          resources: { limits: { cpu: null } },
          envFrom: [{ configMapRef: { name: null } }],
        },
      }),
    ],
    ["spec null", set(null)],
    ["agent null", set({ agent: null })],
    ["a null toolbox", spec({ toolboxes: [null] })],
    ["a null envFrom item", agent({ envFrom: [null] })],
    // Unpruned, {name: null} differs from {}: zod's duplicate moves from claims[1] to claims[2].
    ["a null key beside duplicate claims", agent({ resources: { claims: [{ name: null }, {}, {}] } })],
    ["envFrom defaults", agent({ envFrom: [{ configMapRef: {} }, { secretRef: { optional: true } }, { prefix: "P_" }] })],
    ...celRows(),
    ["CEL next to a non-blocking error (minimum)", set({ hibernatePolicy: "release", agent: { image: IMAGE, replicas: -1 } })],
    [
      "CEL next to a non-blocking error (pattern)",
      set({ hibernatePolicy: "release", agent: { image: IMAGE }, toolboxes: [{ name: "A" }] }),
    ],
    [
      "CEL next to a duplicate key",
      set({ hibernatePolicy: "release", agent: { image: IMAGE, replicas: 1, resources: { claims: [{ name: "a" }, { name: "a" }] } } }),
    ],
    ["CEL blocked by an enum error", set({ hibernatePolicy: "release", snapshotPolicy: "x", agent: { image: IMAGE, replicas: 1 } })],
    [
      "CEL blocked by a too-long class",
      set({ hibernatePolicy: "release", snapshotCompatibilityClass: "c".repeat(64), agent: { image: IMAGE, replicas: 1 } }),
    ],
    ["CEL blocked by a fractional integer", set({ hibernatePolicy: "release", agent: { image: IMAGE, replicas: 1, probePort: 1.5 } })],
    ["CEL blocked by a missing name", set({ hibernatePolicy: "release", agent: { image: IMAGE, replicas: 1 } }, {})],
    ...[
      ["a", "a"],
      ["a", "a", "a"],
      ["a", "b", "a", "b"],
    ].map((names): EdgeCase => [`claims ${names.join(",")}`, agent({ resources: { claims: names.map((name) => ({ name })) } })]),
    ["claims without names", agent({ resources: { claims: [{}, {}, { request: "r" }] } })],
    ["claims with object names", agent({ resources: { claims: [{ name: {} }, { name: {} }] } })],
  ];
}
