/**
 * Named edge cases of CocoonHibernation creates, of `/status` updates (conditions and list-maps)
 * and of updates (every transition of `snapshotCompatibilityClass` from every stored state, and of
 * `podRef`).
 *
 * @module
 */
import { API_VERSION, Kind } from "../../../src/apis/v1/index.js";
import { STORED_HIBERNATION_SPEC, STORED_SET_SPECS } from "./arbitraries-update.js";
import type { UpdateCase } from "./checks.js";
import type { EdgeCase } from "./edge-cases-cocoonset.js";

const hibernation = (spec: unknown) => ({ apiVersion: API_VERSION, kind: Kind.CocoonHibernation, metadata: { name: "edge" }, spec });

/** CocoonHibernation creates. */
export function hibernationEdgeCases(): EdgeCase[] {
  return [
    ["valid", hibernation({ podRef: { name: "demo-0" }, desire: "Hibernate" })],
    ["spec missing", hibernation(undefined)],
    ["podRef missing", hibernation({ desire: "Wake" })],
    ["podRef.name missing", hibernation({ podRef: {}, desire: "Wake" })],
    ["podRef.name empty", hibernation({ podRef: { name: "" }, desire: "Wake" })],
    ["podRef.name any string", hibernation({ podRef: { name: "Not A DNS Name!" }, desire: "Wake" })],
    ["podRef null", hibernation({ podRef: null, desire: "Wake" })],
    ["desire missing", hibernation({ podRef: { name: "p" } })],
    ...["Hibernate", "Wake", "hibernate", "WAKE", "", 1].map((desire): EdgeCase => [
      `desire = ${JSON.stringify(desire)}`,
      hibernation({ podRef: { name: "p" }, desire }),
    ]),
    ["unknown fields", hibernation({ podRef: { name: "p", namespace: "x" }, desire: "Wake", extra: 1 })],
  ];
}

const ready = (fields: Record<string, unknown> = {}) => ({
  type: "Ready",
  status: "True",
  reason: "Ok",
  message: "",
  lastTransitionTime: "2024-01-02T03:04:05Z",
  ...fields,
});

/** `/status` updates of the stored CocoonSet. */
export function statusEdgeCases(): EdgeCase[] {
  const condition = (name: string, fields: Record<string, unknown>): EdgeCase => [name, { conditions: [ready(fields)] }];
  return [
    ["status empty", {}],
    [
      "counters and phase",
      { observedGeneration: 3, phase: "Running", readyAgents: 1, desiredAgents: 2, readyToolboxes: 0, desiredToolboxes: 0 },
    ],
    ...["Pending", "Failed", "running", ""].map((phase): EdgeCase => [`phase = ${JSON.stringify(phase)}`, { phase }]),
    condition("condition valid", {}),
    ...["Available", "foo.example.com/Ready", "T".repeat(316), "T".repeat(317), "", "Ready!", "/Ready", "a/b/c"].map((type) =>
      condition(`condition.type = ${JSON.stringify(type.length > 20 ? `T…(${type.length})` : type)}`, { type }),
    ),
    ...["A", "a_b,c:d", "R".repeat(1024), "R".repeat(1025), "", "1abc", "a-b", "a:"].map((reason) =>
      condition(`condition.reason = ${JSON.stringify(reason.length > 20 ? `R…(${reason.length})` : reason)}`, { reason }),
    ),
    ...["True", "False", "Unknown", "true", ""].map((status) => condition(`condition.status = ${JSON.stringify(status)}`, { status })),
    ...[
      "2024-02-29T00:00:00Z",
      "2024-01-02t03:04:05.999999999+14:00",
      "2023-02-29T00:00:00Z",
      "2024-01-02 03:04:05Z",
      "2024-01-02",
      "2024-01-02T24:00:00Z",
      "2024-01-02T03:04:05",
      "",
      123,
    ].map((lastTransitionTime) =>
      condition(`condition.lastTransitionTime = ${JSON.stringify(lastTransitionTime)}`, { lastTransitionTime }),
    ),
    condition("condition.message of 32768 characters", { message: "m".repeat(32768) }),
    condition("condition.message of 32769 characters", { message: "m".repeat(32769) }),
    condition("condition.message of 16385 emoji (32770 UTF-16 units)", { message: "😀".repeat(16385) }),
    condition("condition.observedGeneration = -1", { observedGeneration: -1 }),
    [
      "condition without reason",
      { conditions: [{ type: "Ready", status: "True", message: "", lastTransitionTime: "2024-01-02T03:04:05Z" }] },
    ],
    ["conditions with a duplicate type", { conditions: [ready(), ready({ status: "False" })] }],
    ["conditions with a duplicate type and a bad status", { conditions: [ready({ status: "bad" }), ready()] }],
    ["conditions with a type three times", { conditions: [ready(), ready(), ready()] }],
    [
      "agents with a duplicate slot",
      {
        agents: [
          { slot: 0, role: "main" },
          { slot: 0, role: "sub" },
        ],
      },
    ],
    ["agents without slots", { agents: [{ role: "main" }, { role: "sub" }, { role: "sub" }] }],
    ["toolboxes with a duplicate name", { toolboxes: [{ name: "ide" }, { name: "ide", vncPort: 99999 }] }],
    ["a null condition", { conditions: [null] }],
    ["null fields", { phase: null, conditions: null, agents: [{ slot: 0, role: "main", ip: null }] }],
  ];
}

const KEEP = "(kept)";
const CLASSES: readonly unknown[] = [KEEP, undefined, "", "gold", "silver", null];

/** Every transition of `snapshotCompatibilityClass` from every stored CocoonSet, on top of its stored spec. */
export function cocoonSetUpdateEdgeCases(): (readonly [string, UpdateCase])[] {
  return STORED_SET_SPECS.flatMap((stored, index) =>
    CLASSES.map((choice): readonly [string, UpdateCase] => {
      const { snapshotCompatibilityClass: old, ...rest } = stored;
      const value = choice === KEEP ? old : choice;
      const spec = value === undefined ? rest : { ...rest, snapshotCompatibilityClass: value };
      return [
        `class ${JSON.stringify(old) ?? "absent"} → ${choice === KEEP ? "same" : (JSON.stringify(choice) ?? "absent")}`,
        { stored: index, spec },
      ];
    }),
  );
}

/** Every transition of `podRef` of the stored CocoonHibernation. */
export function hibernationUpdateEdgeCases(): (readonly [string, UpdateCase])[] {
  const { podRef, desire } = STORED_HIBERNATION_SPEC;
  return [
    ["podRef same, desire same", { podRef, desire }],
    ["podRef same, desire changed", { podRef, desire: "Wake" }],
    ["podRef same plus an unknown field", { podRef: { ...podRef, extra: 1 }, desire }],
    ["podRef changed", { podRef: { name: "pod-1" }, desire }],
    ["podRef.name emptied", { podRef: { name: "" }, desire }],
    ["podRef.name removed", { podRef: {}, desire }],
    ["podRef removed", { desire }],
    ["podRef null", { podRef: null, desire }],
    ["podRef changed and desire invalid", { podRef: { name: "pod-1" }, desire: "x" }],
  ].map(([name, spec]) => [name as string, { stored: 0, spec }] as const);
}
