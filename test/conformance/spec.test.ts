// Agent and toolbox specs as the operator sees them: a TS client writes the spec JSON, Go decodes
// it into the apis/v1 structs (tags from go-contract.md), runs FromAgentSpec / FromToolboxSpec and
// VMSpec.Apply, and writes both the pod annotations and the spec back.
import fc from "fast-check";
import { it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import {
  type AgentSpecLike,
  type ToolboxSpecLike,
  type VMSpec,
  fromAgentSpec,
  fromToolboxSpec,
  vmSpecAnnotations,
} from "../../src/meta/index.js";
import { marshalGoJSON } from "../../src/internal/go/index.js";
import { annotationsMergePatchJSON } from "../../src/meta/annotations-patch-json.js";
import { quantityString } from "../../src/meta/quantity.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { asGoHoldsIt } from "./support/contracts.js";
import { goAnswersPromptly } from "./support/quantity-text.js";
import { agentSpec, agentSpecAsGoWritesIt, snapshotPolicy, toolboxSpec, toolboxSpecAsGoWritesIt } from "./support/specs.js";
import { trickyText } from "./support/text.js";

/** Go's answer: the decode error, or the VM spec, its annotations patch, and the re-encoded spec. */
interface GoSpec {
  error?: string;
  vmSpec?: VMSpec;
  patch?: string;
  encoded?: string;
}

interface Case<S> {
  spec: S;
  vmName: string;
  snapshotPolicy: string | undefined;
  forkFrom: string;
}

const caseOf = <S>(spec: fc.Arbitrary<S>): fc.Arbitrary<Case<S>> =>
  fc.record({ spec, vmName: trickyText, snapshotPolicy, forkFrom: fc.oneof(fc.constant(""), trickyText) });

function request<S>(op: string, c: Case<S>) {
  const args = { spec: JSON.stringify(c.spec), vmName: c.vmName, snapshotPolicy: c.snapshotPolicy ?? "", forkFrom: c.forkFrom };
  return { op, args };
}

/** A storage number past 2^53: we refuse it on purpose, where Go reads the JSON text (docs/differences-from-go.md). */
const hasLostDigits = (spec: unknown): boolean => {
  const storage = (spec as { storage?: unknown }).storage;
  return typeof storage === "number" && Math.abs(storage) > Number.MAX_SAFE_INTEGER;
};

function refusalCode(run: () => unknown): unknown {
  try {
    run();
    return "accepted";
  } catch (error) {
    return isCocoonError(error) ? error.code : error;
  }
}

/**
 * Ours must match Go's: both refuse (a bad quantity or port), or the same VM spec, the same
 * annotation bytes and the same spec bytes; and the spec Go wrote must give us the same VM spec.
 */
function check<S>(c: Case<S>, go: GoSpec, from: (spec: S) => VMSpec, asGoWritesIt: (spec: S) => unknown): void {
  if (hasLostDigits(c.spec)) {
    expectSame(c, { refused: refusalCode(() => from(c.spec)) }, { refused: "ERR_INVALID_QUANTITY" });
    return;
  }
  let vmSpec: VMSpec;
  try {
    vmSpec = from(c.spec);
  } catch (error) {
    if (!isCocoonError(error)) throw error;
    // Go's reason for a quantity is its ParseQuantity error; for a port, json's type error.
    const ours = error.code === "ERR_INVALID_QUANTITY" ? error.message.replace(/^quantity .* is invalid: /s, "") : "bad probePort";
    const theirs = go.error?.includes("probePort") === true ? "bad probePort" : go.error;
    expectSame(c, { refused: ours }, { refused: theirs });
    return;
  }
  const ours = {
    vmSpec: asGoHoldsIt(vmSpec),
    patch: annotationsMergePatchJSON(vmSpecAnnotations(vmSpec)),
    encoded: marshalGoJSON(asGoWritesIt(c.spec)),
  };
  expectSame(c, ours, go);
  // Reading Go's spec back gives the same VM spec when String() re-parses to itself. It does not
  // past the int32 exponent: Go wraps 1000e2147483647 to "1e-2147483646" (TS does too), which
  // re-parses (after minutes, in Go) to 1e-9. Nor for a BinarySI integer that is no multiple of
  // 1024: "1187.5Ki" prints as "1216000", which re-parses as DecimalSI to "1216k", in Go as here
  // (the comparison above already holds TS to Go on the text itself).
  const storage = go.vmSpec?.storage ?? "";
  if (goAnswersPromptly(storage) && (storage === "" || quantityString(storage) === storage)) {
    expectSame(c, asGoHoldsIt(from(JSON.parse(go.encoded ?? "null") as S)), go.vmSpec);
  }
}

describeConformance("apis/v1 specs → meta.FromAgentSpec / FromToolboxSpec", (oracle) => {
  it(
    "turns agent specs into the VM spec annotations Go writes",
    async () => {
      await compareWithGo<Case<AgentSpecLike>, GoSpec>(oracle(), {
        name: "FromAgentSpec",
        arbitrary: caseOf(agentSpec),
        numRuns: 3_000,
        request: (c) => request("agentSpec", c),
        check: (c, go) =>
          check(
            c,
            go,
            (spec) => fromAgentSpec(spec, c.vmName, c.snapshotPolicy, c.forkFrom),
            (spec) => agentSpecAsGoWritesIt(spec as never),
          ),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it(
    "turns toolbox specs into the VM spec annotations Go writes",
    async () => {
      await compareWithGo<Case<ToolboxSpecLike>, GoSpec>(oracle(), {
        name: "FromToolboxSpec",
        arbitrary: caseOf(toolboxSpec),
        numRuns: 3_000,
        request: (c) => request("toolboxSpec", c),
        check: (c, go) =>
          check(
            c,
            go,
            (spec) => fromToolboxSpec(spec, c.vmName, c.snapshotPolicy),
            (spec) => toolboxSpecAsGoWritesIt(spec as never),
          ),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
