/**
 * What a reader of a live object accepts where a schema's input has `T`: the same fields, the same
 * required ones, with the widenings stated once here:
 *
 * - a string (an enum's literals included) is any string, so a mode a newer operator writes reads;
 * - a quantity (`string | number`) is also a `bigint`, and an absent one may be `null` (Go's nil pointer);
 * - a list is a readonly list, at every depth.
 *
 * Numbers stay numbers: at the type level an `int32` and an `int64` are both `number`, so a
 * `bigint` generation is widened where it is read (`CocoonSetLike`). Each `*Like` input type
 * is `Loose` of its schema's input, so a field added to the schema appears in it with no other edit.
 *
 * @example
 * ```ts
 * type Port = Loose<{ mode?: "a" | "b"; size?: string | number; names: string[] }>;
 * const port: Port = { mode: "c", size: 1n, names: ["x"] };
 * ```
 */
export type Loose<T> = unknown extends T
  ? T
  : [NonNullable<T>, string | number] extends [string | number, NonNullable<T>]
    ? string | number | bigint | (undefined extends T ? null | undefined : never)
    : T extends string
      ? string
      : T extends number | boolean | bigint | null | undefined
        ? T
        : T extends readonly (infer E)[]
          ? readonly Loose<E>[]
          : T extends object
            ? { [K in keyof T]: Loose<T[K]> }
            : T;
