/**
 * Generators of `status` for both kinds, sent through the `/status` subresource: enums, counters,
 * list-maps with duplicate and missing keys, and `metav1.Condition`s with bad `type`, `reason`,
 * `status`, `message` and `lastTransitionTime`.
 *
 * @module
 */
import fc from "fast-check";
import { CocoonHibernationPhase, CocoonSetPhase, ConnType } from "../../../src/apis/v1/index.js";
import { REQUIRED, boundedInt, enumField, field, list, notAString, object, plainString, type Mix } from "./arbitraries-common.js";

const values = (e: Record<string, string>): string[] => Object.values(e);

/** An integer field without bounds (`observedGeneration`, the counters). */
const anyInt = (mix: Mix) => boundedInt(mix, -5, undefined);

/** `lastTransitionTime`: RFC 3339 as the apiserver's `date-time` format takes it, and near misses. */
function timestamp(mix: Mix): fc.Arbitrary<unknown> {
  const good = fc.oneof(
    fc.constantFrom("2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123+01:00", "2024-02-29t00:00:00z", "1999-12-31T23:59:59-08:00"),
    fc
      .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
  );
  const bad = fc.constantFrom<unknown>(
    "2023-02-29T00:00:00Z",
    "2024-01-02 03:04:05Z",
    "2024-01-02",
    "",
    "2024-01-02T24:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-01-02T03:04:05",
    123,
  );
  return field(mix, good, bad, REQUIRED);
}

/** One condition; `type` from a small pool so list-map duplicates happen. */
function condition(mix: Mix): fc.Arbitrary<unknown> {
  const type = field(
    mix,
    fc.constantFrom("Ready", "Available", "foo.example.com/Ready", "a_b.c", "T".repeat(316)),
    fc.constantFrom<unknown>("", "Ready!", "/Ready", "-Ready", "T".repeat(317), "x/".repeat(3), 5),
    REQUIRED,
  );
  const reason = field(
    mix,
    fc.constantFrom("Ready", "A", "a_b,c:d", "R".repeat(1024)),
    fc.constantFrom<unknown>("", "1abc", "a-b", "a:", "R".repeat(1025), 5),
    REQUIRED,
  );
  const message = field(
    mix,
    fc.constantFrom("", "ok", "😀".repeat(16385), "m".repeat(32768)),
    fc.constantFrom<unknown>("m".repeat(32769), 5),
    REQUIRED,
  );
  return object({
    type,
    status: enumField(mix, ["True", "False", "Unknown"], REQUIRED),
    reason,
    message,
    lastTransitionTime: timestamp(mix),
    observedGeneration: boundedInt(mix, 0, undefined),
  });
}

/** `conditions`: a list-map keyed by `type`. */
const conditions = (mix: Mix) => list(mix, condition(mix), 3);

/** A CocoonSet `status`. */
export function cocoonSetStatus(mix: Mix): fc.Arbitrary<unknown> {
  const agent = object({
    slot: field(mix, fc.integer({ min: 0, max: 2 }), fc.constantFrom<unknown>("0", 1.5, null), REQUIRED),
    role: field(mix, fc.constantFrom("main", "sub"), notAString, REQUIRED),
    podName: plainString(mix),
    vmName: plainString(mix),
    vmID: plainString(mix),
    ip: plainString(mix),
    phase: plainString(mix),
    forkedFrom: plainString(mix),
  });
  const toolbox = object({
    name: field(mix, fc.constantFrom("browser", "ide"), notAString, REQUIRED),
    podName: plainString(mix),
    phase: plainString(mix),
    connType: enumField(mix, values(ConnType)),
    vncPort: anyInt(mix),
  });
  return object({
    observedGeneration: anyInt(mix),
    phase: enumField(mix, values(CocoonSetPhase)),
    readyAgents: anyInt(mix),
    desiredAgents: anyInt(mix),
    readyToolboxes: anyInt(mix),
    desiredToolboxes: anyInt(mix),
    agents: list(mix, agent, 3),
    toolboxes: list(mix, toolbox, 3),
    conditions: conditions(mix),
  });
}

/** A CocoonHibernation `status`. */
export function cocoonHibernationStatus(mix: Mix): fc.Arbitrary<unknown> {
  return object({
    observedGeneration: anyInt(mix),
    phase: enumField(mix, values(CocoonHibernationPhase)),
    vmName: plainString(mix),
    conditions: conditions(mix),
  });
}

/** Valid and invalid statuses of `kind`, half each way on average. */
export function anyStatus(kind: "cocoonsets" | "cocoonhibernations"): fc.Arbitrary<unknown> {
  const build = kind === "cocoonsets" ? cocoonSetStatus : cocoonHibernationStatus;
  return fc.oneof(build({ badness: 0 }), build({ badness: 1 }));
}
