import fc from "fast-check";
import { type AgentSpecLike, type ToolboxSpecLike, quantityString } from "../../../src/meta/index.js";
import { quantityNumber, quantityText } from "./quantity-text.js";
import { trickyText } from "./text.js";

const field = fc.oneof({ arbitrary: fc.constant(""), weight: 1 }, { arbitrary: trickyText, weight: 2 });
const enumOr = (...values: string[]) => fc.oneof(field, fc.constantFrom(...values));

/** Quantities Go accepts, for `resources` (which FromAgentSpec ignores but Go re-encodes). */
const validQuantity = fc.constantFrom<string | number>("1", "500m", "1Gi", "1.5Gi", "1000M", "+8Gi", "1.500G", "0", 1, 1.5, 2048);
const resourceList = fc.dictionary(fc.constantFrom("cpu", "memory", "ephemeral-storage"), validQuantity, { minKeys: 1 });

/** The `VMOptions` fields, all optional, with bad ports and bad quantities among them. */
const vmOptions = {
  os: enumOr("linux", "windows", "android", "macos"),
  backend: enumOr("cloud-hypervisor", "firecracker"),
  connType: enumOr("ssh", "rdp", "vnc", "adb"),
  network: field,
  forcePull: fc.boolean(),
  noDirectIO: fc.boolean(),
  probePort: fc.oneof(fc.integer({ min: -5, max: 70_000 }), fc.constantFrom(0, 22, 65535, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5)),
  storage: fc.oneof(
    { arbitrary: quantityText, weight: 4 },
    { arbitrary: quantityNumber, weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
  ),
  resources: fc.record({ limits: resourceList, requests: resourceList }, { requiredKeys: [] }),
};

/** An agent spec as a TS client writes it into a CocoonSet. */
export const agentSpec = fc.record(
  { replicas: fc.nat(5), image: field, mode: enumOr("clone", "run"), ...vmOptions, serviceAccountName: field },
  { requiredKeys: ["image"] },
) satisfies fc.Arbitrary<AgentSpecLike>;

/** A toolbox spec as a TS client writes it into a CocoonSet. */
export const toolboxSpec = fc.record(
  {
    name: field,
    image: field,
    mode: enumOr("run", "clone", "static"),
    staticIP: field,
    staticVMID: field,
    vncPort: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    ...vmOptions,
  },
  { requiredKeys: ["name"] },
) satisfies fc.Arbitrary<ToolboxSpecLike>;

/** A snapshot policy argument: unset, empty, valid or anything. */
export const snapshotPolicy = fc.oneof(fc.constant(undefined), enumOr("always", "main-only", "never"));

type Spec = Record<string, unknown>;

/** `omitempty`: Go drops "", 0, false and nil. */
const present = (v: unknown) => v !== undefined && v !== null && v !== "" && v !== 0 && v !== false;
const pick = (spec: Spec, keys: readonly string[]): [string, unknown][] => keys.filter((k) => present(spec[k])).map((k) => [k, spec[k]]);

function quantities(list: unknown): Map<string, string> | undefined {
  if (list === undefined) return undefined;
  return new Map(Object.entries(list as Record<string, string | number>).map(([k, q]) => [k, quantityString(q)]));
}

/** The VMOptions members, in Go's field order, as json.Marshal writes them. */
function vmOptionsShape(spec: Spec): [string, unknown][] {
  const resources = (spec.resources ?? {}) as Spec;
  return [
    ...pick(spec, ["os", "backend", "connType", "network", "forcePull", "noDirectIO", "probePort"]),
    // A pointer: omitempty drops only nil, so a zero quantity is written as "0".
    ...(spec.storage === undefined || spec.storage === null
      ? []
      : [["storage", quantityString(spec.storage as string | number)] as [string, unknown]]),
    [
      "resources",
      Object.fromEntries(pick({ limits: quantities(resources.limits), requests: quantities(resources.requests) }, ["limits", "requests"])),
    ],
  ];
}

/** What Go's json.Marshal writes for the decoded AgentSpec, as a value for `marshalGoJSON`. */
export function agentSpecAsGoWritesIt(spec: Spec): Spec {
  return Object.fromEntries([
    ...pick(spec, ["replicas"]),
    ["image", spec.image ?? ""],
    ...pick(spec, ["mode"]),
    ...vmOptionsShape(spec),
    ...pick(spec, ["serviceAccountName"]),
  ]);
}

/** What Go's json.Marshal writes for the decoded ToolboxSpec. */
export function toolboxSpecAsGoWritesIt(spec: Spec): Spec {
  return Object.fromEntries([
    ["name", spec.name ?? ""],
    ...pick(spec, ["image", "mode", "staticIP", "staticVMID", "vncPort"]),
    ...vmOptionsShape(spec),
  ]);
}
