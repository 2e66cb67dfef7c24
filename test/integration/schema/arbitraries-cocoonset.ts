/**
 * Generators of CocoonSet create requests, valid and invalid: every enum right and wrong, bounds
 * at and past their edges, patterns, missing required fields, quantities, unknown fields at every
 * level, `null` fields, the CEL create rule, and `metadata.name`/`generateName` cases.
 *
 * @module
 */
import fc from "fast-check";
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
import {
  ABSENT,
  REQUIRED,
  bool,
  boundedInt,
  enumField,
  field,
  list,
  notAString,
  object,
  plainString,
  type Mix,
} from "./arbitraries-common.js";
import { envFrom, quantity, resources } from "./arbitraries-resources.js";
import { metadata } from "./arbitraries-metadata.js";

const values = (e: Record<string, string>): string[] => Object.values(e);

/** The `VMOptions` fields, inlined into agent and toolbox specs. */
function vmOptions(mix: Mix): Record<string, fc.Arbitrary<unknown>> {
  return {
    os: enumField(mix, values(OSType)),
    backend: enumField(mix, values(Backend)),
    connType: enumField(mix, values(ConnType)),
    network: plainString(mix),
    forcePull: bool(mix),
    noDirectIO: bool(mix),
    probePort: boundedInt(mix, 0, 65535),
    storage: quantity(mix),
    resources: resources(mix),
  };
}

/** Toolbox names: DNS-1123 labels, and (bad) upper case, edge dashes, `_`, empty. */
function toolboxName(mix: Mix): fc.Arbitrary<unknown> {
  const good = fc.oneof(
    fc.constantFrom("browser", "a", "a-b", "0", "x".repeat(70)),
    fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,8}[a-z0-9])?$/),
  );
  return field(mix, good, fc.oneof(fc.constantFrom<unknown>("A", "Browser", "-a", "a-", "a_b", "a.b", ""), notAString), REQUIRED);
}

/** One `toolboxes[]` item. */
export function toolbox(mix: Mix): fc.Arbitrary<Record<string, unknown>> {
  return object({
    name: toolboxName(mix),
    image: plainString(mix),
    mode: enumField(mix, values(ToolboxMode)),
    staticIP: plainString(mix),
    staticVMID: plainString(mix),
    vncPort: boundedInt(mix, 0, 65535),
    ...vmOptions(mix),
  });
}

/** `spec.agent`. */
export function agent(mix: Mix): fc.Arbitrary<Record<string, unknown>> {
  return object({
    replicas: boundedInt(mix, 0, undefined, { absent: 3, good: 5, bad: 1 }),
    image: field(mix, fc.constantFrom("img", "ghcr.io/acme/agent:1"), fc.constantFrom<unknown>("", 5, null), {
      absent: 1,
      good: 20,
      bad: 2,
    }),
    mode: enumField(mix, values(AgentMode)),
    ...vmOptions(mix),
    envFrom: envFrom(mix),
    serviceAccountName: plainString(mix),
  });
}

/** `spec.snapshotCompatibilityClass`: a label value (≤ 63, may be empty). */
function snapshotClass(mix: Mix): fc.Arbitrary<unknown> {
  const good = fc.oneof(
    fc.constantFrom("", "a", "gpu.v1", "A_b-c.9", "c".repeat(63)),
    fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,12}[A-Za-z0-9])?$/),
  );
  const bad = fc.constantFrom<unknown>("c".repeat(64), `${"c".repeat(63)}-`, "-a", "a-", "a b", "ä", "_a", 1, null);
  return field(mix, good, bad, { absent: 4, good: 4, bad: 2 });
}

/** `spec`, with the CEL rule's inputs (policy, replicas, toolboxes) skewed toward its edges. */
export function cocoonSetSpec(mix: Mix): fc.Arbitrary<Record<string, unknown>> {
  const toolboxes = list(mix, toolbox(mix), 3, { absent: 4, good: 5, bad: 1 });
  return object({
    suspend: bool(mix),
    snapshotPolicy: enumField(mix, values(SnapshotPolicy)),
    hibernatePolicy: enumField(mix, values(HibernatePolicy), { absent: 3, good: 6, bad: 1 }),
    nodePool: plainString(mix),
    snapshotCompatibilityClass: snapshotClass(mix),
    nodeName: plainString(mix),
    agent: field(mix, agent(mix), fc.constantFrom<unknown>(null, "img", []), { absent: 1, good: 25, bad: 2 }),
    toolboxes,
  });
}

/** A whole CocoonSet create request for `namespace`; `status` is sent too (the server ignores it on create). */
export function cocoonSet(mix: Mix, namespace: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      metadata: metadata(mix, namespace),
      spec: field(mix, cocoonSetSpec(mix), fc.constantFrom<unknown>(null, "spec", []), { absent: 1, good: 30, bad: 1 }),
      status: fc.constantFrom<unknown>(ABSENT, { phase: "NotAPhase", readyAgents: "x" }, { phase: "Running" }),
      extra: fc.constantFrom<unknown>(ABSENT, ABSENT, ABSENT, { any: "thing" }),
    })
    .map(({ metadata: meta, spec, status, extra }) => {
      const out: Record<string, unknown> = { apiVersion: API_VERSION, kind: Kind.CocoonSet, metadata: meta };
      if (spec !== ABSENT) out.spec = spec;
      if (status !== ABSENT) out.status = status;
      if (extra !== ABSENT) out.extra = extra;
      return out;
    });
}

/** Valid and invalid CocoonSets, half each way on average. */
export function anyCocoonSet(namespace: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(cocoonSet({ badness: 0 }, namespace), cocoonSet({ badness: 1 }, namespace));
}
