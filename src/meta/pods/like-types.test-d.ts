// The `*Like` inputs of the pod builders are written by hand (their declarations are public API)
// and deliberately looser than the schemas: any string for an enum, a `bigint` generation or
// quantity, readonly lists, only the fields the builders read. These checks tie them to the one
// definition, the schemas: every field a `*Like` names is a field of the schema's input, and what
// the schema accepts (input) or returns (output) is accepted by the `*Like`.
import { expectTypeOf, test } from "vitest";
import type {
  AgentSpecInput,
  CocoonSet,
  CocoonSetInput,
  CocoonSetSpecInput,
  EnvFromSourceInput,
  ResourceRequirementsInput,
  ToolboxSpecInput,
  VMOptionsInput,
} from "../../apis/v1/index.js";
import type { AgentSpecLike, ToolboxSpecLike, VMOptionsLike } from "../from-spec.js";
import type { CocoonSetLike, CocoonSetSpecLike, EnvFromLike, ResourcesLike, ToolboxLike } from "./types.js";

/** An object type under `T`'s optionality and list. */
type Item<T> = NonNullable<T> extends readonly (infer E)[] ? NonNullable<E> : NonNullable<T>;
/** A record's keys are data, not fields. */
type IsRecord<T> = string extends keyof T ? true : false;

/** The paths of the fields `L` names that `I` has not, at any depth: `never` when `L` only picks from `I`. */
type ExtraFields<L, I> = {
  [K in keyof L & string]-?: K extends keyof I
    ? Item<L[K]> extends object
      ? IsRecord<Item<L[K]>> extends true
        ? never
        : `${K}.${ExtraFields<Item<L[K]>, Item<I[K]>>}`
      : never
    : K;
}[keyof L & string];

test("every field a *Like names is a field of the schema", () => {
  expectTypeOf<ExtraFields<CocoonSetLike, CocoonSetInput>>().toBeNever();
  expectTypeOf<ExtraFields<CocoonSetSpecLike, CocoonSetSpecInput>>().toBeNever();
  expectTypeOf<ExtraFields<VMOptionsLike, VMOptionsInput>>().toBeNever();
  expectTypeOf<ExtraFields<AgentSpecLike, AgentSpecInput>>().toBeNever();
  expectTypeOf<ExtraFields<ToolboxSpecLike, ToolboxSpecInput>>().toBeNever();
  expectTypeOf<ExtraFields<ToolboxLike, ToolboxSpecInput>>().toBeNever();
  expectTypeOf<ExtraFields<ResourcesLike, ResourceRequirementsInput>>().toBeNever();
  expectTypeOf<ExtraFields<EnvFromLike, EnvFromSourceInput>>().toBeNever();
  // The check sees a field the schema lacks, at depth.
  expectTypeOf<ExtraFields<{ spec?: { agent: { gpu?: number } } }, CocoonSetInput>>().toEqualTypeOf<"spec.agent.gpu">();
});

test("what the schema accepts or returns, the *Like accepts", () => {
  expectTypeOf<CocoonSetInput>().toExtend<CocoonSetLike>();
  expectTypeOf<CocoonSet>().toExtend<CocoonSetLike>();
  expectTypeOf<CocoonSetSpecInput>().toExtend<CocoonSetSpecLike>();
  expectTypeOf<AgentSpecInput>().toExtend<AgentSpecLike>();
  expectTypeOf<ToolboxSpecInput>().toExtend<ToolboxLike>();
  expectTypeOf<ResourceRequirementsInput>().toExtend<ResourcesLike>();
  expectTypeOf<EnvFromSourceInput>().toExtend<EnvFromLike>();
});

test("the *Like stays looser where it means to: a bigint generation and quantity, any mode string", () => {
  const set: CocoonSetLike = {
    metadata: { name: "demo", generation: 2n ** 60n },
    spec: { snapshotPolicy: "future-policy", agent: { image: "i", mode: "future-mode", resources: { limits: { memory: 1n } } } },
  };
  expectTypeOf(set).toExtend<CocoonSetLike>();
  expectTypeOf<{ metadata: { generation: bigint } }>().not.toExtend<CocoonSetInput>();
});
