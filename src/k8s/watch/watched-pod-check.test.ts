import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WATCHED_POD_CHECK_FILE, renderWatchedPodCheck } from "../../../scripts/generate-from-schemas.js";
import { buildMainPod } from "../../meta/index.js";
import { acceptWatchedPod } from "./watched-pod-check.generated.js";
import { WatchedPodSchema } from "./watched-pod-schema.js";

type Json = Record<string, unknown>;

/** A pod as the server sends it, with every field the schema checks present, optional ones included. */
function servedPod(): Json {
  const pod = JSON.parse(
    JSON.stringify(
      buildMainPod({ metadata: { name: "demo", namespace: "prod", uid: "u-1", generation: 1 }, spec: { agent: { image: "agent:1" } } }),
    ),
  ) as { metadata: Json; spec: Json } & Json;
  Object.assign(pod.metadata, {
    uid: "p-1",
    resourceVersion: "7",
    creationTimestamp: "2026-01-02T03:04:05Z",
    deletionTimestamp: "2026-01-02T03:05:05Z",
    finalizers: ["cocoonstack.io/vm"],
  });
  Object.assign(pod.spec, { nodeName: "cocoon-1", nodeSelector: { pool: "default" } });
  pod["status"] = {
    phase: "Running",
    qosClass: "BestEffort",
    podIP: "10.88.0.7",
    podIPs: [{ ip: "10.88.0.7" }],
    startTime: "2026-01-02T03:04:06Z",
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Up",
        message: "up",
        observedGeneration: 1,
        lastProbeTime: null,
        lastTransitionTime: "2026-01-02T03:04:07Z",
      },
    ],
    containerStatuses: [
      {
        name: "agent",
        ready: true,
        state: { running: { startedAt: "2026-01-02T03:04:07Z" }, terminated: { startedAt: null, finishedAt: "2026-01-02T03:04:06Z" } },
        restartCount: 0,
      },
    ],
  };
  return pod;
}

/** Every path into `value` that names an object field or an array item, the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Json)[key as string], [...prefix, key])]);
}

/** `pod` with the value at `path` replaced by `value`, or removed when `value` is `undefined`. */
function mutated(pod: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(pod);
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key as string] as Json;
  const last = path.at(-1) as string;
  if (value === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value;
  return copy;
}

const pod = servedPod();
const listed = mutated(mutated(pod, ["apiVersion"], undefined), ["kind"], undefined);
const paths = [...pathsOf(pod), ["status", "containerStatuses", 0, "state"], ["metadata", "ownerReferences", 0, "controller"]];

/** Whether no object inside `value` has an own `__proto__` key (JSON.parse and fast-check make such keys). */
function hasNoOwnProtoKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) return false;
  return Object.values(value).every(hasNoOwnProtoKey);
}

/** The generated check and the schema, side by side: the same verdict, and the same object when both accept. */
function expectAgreement(input: Json): void {
  const parsed = WatchedPodSchema.safeParse(input);
  const accepted = acceptWatchedPod(structuredClone(input));
  expect(accepted !== undefined).toBe(parsed.success);
  if (parsed.success) expect(accepted).toEqual(parsed.data);
}

describe("acceptWatchedPod", () => {
  it("is generated from WatchedPodSchema: the committed file is a fresh render (npm run generate)", () => {
    expect(readFileSync(WATCHED_POD_CHECK_FILE, "utf8")).toBe(renderWatchedPodCheck());
  });

  it("accepts a served pod as the schema does, filling in the type meta a list item lacks, in place", () => {
    const input = structuredClone(listed);
    const accepted = acceptWatchedPod(input);
    expect(accepted).toBe(input);
    expect([accepted?.apiVersion, accepted?.kind, accepted?.metadata.resourceVersion]).toEqual(["v1", "Pod", "7"]);
    expect(accepted).toEqual(WatchedPodSchema.parse(listed));
  });

  it("refuses without touching the object: a pod without the provider toleration, and a kind that is not Pod", () => {
    const untolerated = mutated(listed, ["spec", "tolerations"], [{ key: "other" }]);
    expect(acceptWatchedPod(untolerated)).toBeUndefined();
    expect(untolerated).not.toHaveProperty("apiVersion");
    expect(acceptWatchedPod(mutated(pod, ["kind"], "Node"))).toBeUndefined();
  });

  it("gives the schema's verdict on any one field replaced by any JSON value, or removed (property)", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom(...paths),
        // Own `__proto__` keys are the test below's: zod's loose objects drop them, the check keeps them.
        fc.option(fc.jsonValue({ maxDepth: 2 }).filter(hasNoOwnProtoKey), { nil: undefined }),
        (asListed, path, value) => expectAgreement(mutated(asListed ? listed : pod, path, value)),
      ),
      { numRuns: 2_000 },
    );
  });

  it("keeps an own __proto__ key as the server sent it, as data, where zod drops it: the same verdict, no prototype set", () => {
    const state = JSON.parse('{"__proto__":{"polluted":true},"running":{}}') as Json;
    const input = mutated(pod, ["status", "containerStatuses", 0, "state"], state);
    const parsed = WatchedPodSchema.parse(structuredClone(input));
    const accepted = acceptWatchedPod(input);
    const kept = accepted?.status?.containerStatuses?.[0]?.state as Record<string, unknown> | undefined;
    expect(Object.hasOwn(kept ?? {}, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect((kept as { polluted?: unknown }).polluted).toBeUndefined();
    expect(parsed.status?.containerStatuses?.[0]?.state).toEqual({ running: {} });
  });

  it("gives the schema's verdict on any JSON value at all (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        expect(acceptWatchedPod(structuredClone(value)) !== undefined).toBe(WatchedPodSchema.safeParse(value).success);
      }),
      { numRuns: 500 },
    );
  });
});
