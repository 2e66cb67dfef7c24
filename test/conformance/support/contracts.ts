import fc from "fast-check";
import { Annotation, LifecycleState, type LifecycleStatus, type VMRuntime, type VMSpec } from "../../../src/meta/index.js";
import { boolText, integerText } from "./integer-text.js";
import { quantityText } from "./quantity-text.js";
import { trickyText, wellFormed } from "./text.js";

/** Mostly-empty text: Go's writers skip empty fields, so emptiness must be common. */
const field = fc.oneof({ arbitrary: fc.constant(""), weight: 1 }, { arbitrary: trickyText, weight: 2 });

/** A VM spec as a TS writer might fill it: unicode, HTML characters and empty fields. */
export const vmSpec: fc.Arbitrary<VMSpec> = fc.record({
  vmName: field,
  image: field,
  mode: fc.oneof(field, fc.constantFrom("clone", "run", "static")),
  os: fc.oneof(field, fc.constantFrom("linux", "windows", "android", "macos")),
  storage: fc.oneof(field, quantityText),
  network: field,
  snapshotPolicy: fc.oneof(field, fc.constantFrom("always", "main-only", "never")),
  forkFrom: field,
  managed: fc.boolean(),
  forcePull: fc.boolean(),
  noDirectIO: fc.boolean(),
  connType: fc.oneof(field, fc.constantFrom("ssh", "rdp", "vnc", "adb")),
  backend: fc.oneof(field, fc.constantFrom("cloud-hypervisor", "firecracker")),
  probePort: fc.oneof(field, integerText),
});

/** A VM runtime; the port spans the whole int32 range, negatives included. */
export const vmRuntime: fc.Arbitrary<VMRuntime> = fc.record({
  vmID: field,
  ip: fc.oneof(field, fc.ipV4(), fc.ipV6()),
  vncPort: fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, 1, -1, 5900, 65535, 2 ** 31 - 1, -(2 ** 31))),
});

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A lifecycle status; the generation is a safe `number` or a `bigint` anywhere in int64. */
export const lifecycleStatus: fc.Arbitrary<LifecycleStatus> = fc.record({
  state: fc.oneof(fc.constantFrom(...Object.values(LifecycleState)), field),
  observedGeneration: fc.oneof(
    fc.maxSafeInteger(),
    fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
    fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
    fc.constantFrom(INT64_MIN, INT64_MAX, 2n ** 53n + 1n),
  ),
  message: field,
});

/** Annotations a pod might carry: contract keys holding numbers, booleans, text or garbage. */
export const podAnnotations: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(...Object.values(Annotation)),
  fc.oneof(integerText, boolText, trickyText).map(wellFormed),
  { maxKeys: 12 },
);

/** Replaces lone surrogates in every string of a plain value, as the trip to Go does. */
export function asGoHoldsIt<T>(value: T): T {
  if (typeof value === "string") return wellFormed(value) as T;
  if (Array.isArray(value)) return value.map(asGoHoldsIt) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), asGoHoldsIt(v)])) as T;
  }
  return value;
}
