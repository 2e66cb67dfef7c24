// The `*Like` inputs of the pod builders are derived from the schemas (`Loose` of each input) and
// deliberately looser than them: any string for an enum, a `bigint` generation or quantity, a
// `null` storage, readonly lists. These checks tie them to the one definition, the schemas: the
// `*Like` names exactly the schema input's fields, and what the schema accepts (input) or returns
// (output) is accepted by the `*Like`.
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

test("every field of the schema's input is a field of the *Like: a field added to a schema appears", () => {
  expectTypeOf<ExtraFields<Omit<CocoonSetInput, "status">, CocoonSetLike>>().toBeNever();
  expectTypeOf<ExtraFields<CocoonSetSpecInput, CocoonSetSpecLike>>().toBeNever();
  expectTypeOf<ExtraFields<VMOptionsInput, VMOptionsLike>>().toBeNever();
  expectTypeOf<ExtraFields<AgentSpecInput, AgentSpecLike>>().toBeNever();
  expectTypeOf<ExtraFields<ToolboxSpecInput, ToolboxSpecLike>>().toBeNever();
  expectTypeOf<ExtraFields<ToolboxSpecInput, ToolboxLike>>().toBeNever();
  expectTypeOf<ExtraFields<ResourceRequirementsInput, ResourcesLike>>().toBeNever();
  expectTypeOf<ExtraFields<EnvFromSourceInput, EnvFromLike>>().toBeNever();
  // The fields the schema requires, the *Like requires.
  expectTypeOf<{ image?: string }>().not.toExtend<AgentSpecLike>();
  expectTypeOf<{ image: string }>().not.toExtend<ToolboxLike>();
  expectTypeOf<{ image: string }>().toExtend<ToolboxSpecLike>();
  expectTypeOf<{ snapshotPolicy: string }>().not.toExtend<CocoonSetSpecLike>();
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
  const toolbox: ToolboxLike = { name: "t", storage: null, os: "plan9" };
  expectTypeOf<ToolboxLike["storage"]>().toEqualTypeOf<string | number | bigint | null | undefined>();
  expectTypeOf(toolbox).toExtend<ToolboxLike>();
  expectTypeOf<{ storage: null }>().toExtend<VMOptionsLike>();
  expectTypeOf<{ claims: readonly { name: string }[] }>().toExtend<ResourcesLike>();
  // Numbers stay numbers: an int32 port is not a bigint.
  expectTypeOf<{ probePort: bigint }>().not.toExtend<VMOptionsLike>();
  expectTypeOf<{ metadata: { generation: bigint } }>().not.toExtend<CocoonSetInput>();
});
