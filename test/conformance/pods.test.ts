// The pod, owner and slot helpers against Go on pods as a client decodes them: JSON text with
// `null` where lists, list items, maps, map values and states may be (issue 9: Go reads zero
// values there), decoded by encoding/json on the Go side and by JSON.parse on ours.
import fc from "fast-check";
import { it } from "vitest";
import {
  cocoonSetOwnerName,
  extractAgentSlot,
  hasCocoonTolerationKey,
  isContainerRunning,
  isOwnedByCocoonSet,
  isPodReady,
  isPodTerminal,
  podNodePool,
  roleForPod,
  type PodLike,
} from "../../src/meta/index.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { integerText } from "./support/integer-text.js";

interface PodCase {
  readonly pod: string;
  readonly vmName: string;
}

const orNull = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary, weight: 3 }, { arbitrary: fc.constant(null), weight: 1 });
const list = <T>(item: fc.Arbitrary<T>) => orNull(fc.array(orNull(item), { maxLength: 3 }));
const someOf = <T>(...values: T[]) => orNull(fc.constantFrom(...values));
const POOL = "cocoonstack.io/pool";
const stringMap = orNull(fc.dictionary(fc.constantFrom(POOL, "other"), orNull(fc.constantFrom("", "gpu", "cpu")), { maxKeys: 2 }));

const podObject = fc.record(
  {
    metadata: orNull(
      fc.record(
        {
          namespace: someOf("ns", "", "a-b"),
          labels: stringMap,
          annotations: stringMap,
          ownerReferences: list(
            fc.record({ kind: someOf("CocoonSet", "ReplicaSet", "cocoonset"), name: someOf("cs", "", "x-1") }, { requiredKeys: [] }),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    spec: orNull(
      fc.record(
        {
          nodeSelector: stringMap,
          tolerations: list(fc.record({ key: someOf("virtual-kubelet.io/provider", "other") }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
    ),
    status: orNull(
      fc.record(
        {
          phase: someOf("Failed", "Succeeded", "Running"),
          conditions: list(
            fc.record({ type: someOf("Ready", "ready", "PodScheduled"), status: someOf("True", "true", "False") }, { requiredKeys: [] }),
          ),
          containerStatuses: list(
            fc.record({ state: orNull(fc.record({ running: orNull(fc.constant({})) }, { requiredKeys: [] })) }, { requiredKeys: [] }),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

const podCase: fc.Arbitrary<PodCase> = fc.record({
  pod: podObject.map((pod) => JSON.stringify(pod)),
  vmName: fc.oneof(
    fc
      .tuple(fc.constantFrom("ns", "", "a-b"), fc.constantFrom("cs", "", "x-1"), integerText)
      .map(([ns, cs, slot]) => `vk-${ns}-${cs}-${slot}`),
    fc.string(),
  ),
});

const EXAMPLES: PodCase[] = [
  { pod: '{"status":{"containerStatuses":[null]}}', vmName: "vk-ns-cs-0" },
  {
    pod: '{"metadata":{"namespace":"ns","ownerReferences":[null,{"kind":"CocoonSet","name":"cs"}]}}',
    vmName: "vk-ns-cs-9223372036854775807",
  },
  { pod: '{"status":{"conditions":[null,{"type":"Ready","status":"True"}]}}', vmName: "" },
  {
    pod: '{"spec":{"nodeSelector":{"cocoonstack.io/pool":null},"tolerations":[null]},"metadata":{"labels":{"cocoonstack.io/pool":"gpu"}}}',
    vmName: "vk---0",
  },
];

function ours({ pod: text, vmName }: PodCase): Record<string, unknown> {
  const pod = JSON.parse(text) as PodLike;
  const owners = pod?.metadata?.ownerReferences;
  const owner = cocoonSetOwnerName(owners);
  return {
    isPodReady: isPodReady(pod),
    isPodTerminal: isPodTerminal(pod),
    isContainerRunning: isContainerRunning(pod),
    podNodePool: podNodePool(pod),
    cocoonSetOwnerName: owner,
    isOwnedByCocoonSet: isOwnedByCocoonSet(owners),
    hasCocoonTolerationKey: hasCocoonTolerationKey(pod?.spec?.tolerations),
    extractAgentSlot: extractAgentSlot(pod?.metadata?.namespace ?? "", owner, vmName).toString(),
    roleForPod: roleForPod(pod, vmName),
  };
}

describeConformance("pod helpers on null list items", (oracle) => {
  it(
    "read pods with nulls as Go reads the decoded corev1.Pod",
    async () => {
      await compareWithGo<PodCase, Record<string, unknown>>(oracle(), {
        name: "podReaders",
        arbitrary: podCase,
        examples: EXAMPLES,
        numRuns: 5_000,
        request: (c) => ({ op: "podReaders", args: c }),
        check: (c, go) => expectSame(c, ours(c), go),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
