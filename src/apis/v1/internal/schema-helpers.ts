import { z } from "zod";
import { INT32, INT32_MAX, INT32_MIN, INT64 } from "../../../internal/go/index.js";
import { goTag } from "../go-tags.js";
import { addIssue } from "./add-issue.js";

/**
 * Small builders shared by the schemas. Integers are JSON integers within JavaScript's safe range,
 * and an `int32` field is also within Go's `int32` range, as kube-apiserver 1.36 and newer enforce
 * the `int32` format on custom resources (1.35 stores a larger value, which a Go client then cannot
 * decode). The `Minimum`/`Maximum` markers are bounds of their own.
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
      if (!Number.isSafeInteger(value)) addIssue(ctx, { code: "invalid_type", expected: "int", input: value });
    })
    .meta({ type: "integer" });
}

/**
 * A Go `int32` field: `type: integer, format: int32`. A safe integer outside the `int32` range gets a
 * `too_big`/`too_small` issue, which (like the apiserver's format error) does not keep the CEL rules from running.
 */
export const int32 = () =>
  goTag(
    integer()
      .superRefine((value, ctx) => {
        if (!Number.isSafeInteger(value)) return;
        if (value > INT32_MAX) addIssue(ctx, { code: "too_big", origin: "number", maximum: INT32_MAX, inclusive: true, input: value });
        if (value < INT32_MIN) addIssue(ctx, { code: "too_small", origin: "number", minimum: INT32_MIN, inclusive: true, input: value });
      })
      .meta({ format: "int32" }),
    { type: INT32 },
  );

/** A Go `int64` field: `type: integer, format: int64`. */
export const int64 = () => goTag(integer().meta({ format: "int64" }), { type: INT64 });
