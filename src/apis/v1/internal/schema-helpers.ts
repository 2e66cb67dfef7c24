import { z } from "zod";

/**
 * Small builders shared by the schemas. Integers are JSON integers within JavaScript's safe range;
 * the apiserver does not enforce the `int32`/`int64` formats on custom resources, so neither do we
 * (only the explicit `Minimum`/`Maximum` markers are bounds).
 *
 * @internal
 */

/**
 * A JSON integer within JavaScript's safe range (`type: integer` in the CRD). A fraction or an
 * unsafe integer gets zod's usual `invalid_type` issue ("expected int"), reported as continuable:
 * `z.int()` marks it as aborting everything, which would keep the object-level checks (duplicate
 * list-map keys, the CEL gate) from running where the apiserver runs them.
 */
export function integer() {
  return z
    .number()
    .superRefine((value, ctx) => {
      if (!Number.isSafeInteger(value)) ctx.addIssue({ code: "invalid_type", expected: "int", input: value });
    })
    .meta({ type: "integer" });
}

/** A Go `int32` field: `type: integer, format: int32`. */
export const int32 = () => integer().meta({ format: "int32" });

/** A Go `int64` field: `type: integer, format: int64`. */
export const int64 = () => integer().meta({ format: "int64" });
