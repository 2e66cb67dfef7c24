// zod's own `safeParse` (4.6) returns each failure as an object literal with a getter and a setter
// closing over that failure's state. V8 builds such a literal as a dictionary-mode object, a hash
// table of its own per result, and a loop of failing CocoonSet parses spent about a third of its
// time in the collector, with full collections where a valid parse has none. The failures here
// share one fast hidden class: one accessor pair for all, the state in private fields. What a
// caller sees is zod's: `success`, then `error` (own, enumerable, built on first read,
// replaceable), the same issues and messages.
import { z } from "zod";

type RawIssue = z.core.$ZodRawIssue;
type ParseContext = z.core.ParseContextInternal;

/** A failed `safeParse` whose error is built on its first read, as zod's is. */
class LazyFailure {
  readonly success = false;
  #issues: readonly RawIssue[] | undefined;
  #ctx: ParseContext | undefined;
  #error: z.ZodError | undefined;

  static readonly #errorProperty: PropertyDescriptor = {
    configurable: true,
    enumerable: true,
    get(this: LazyFailure): z.ZodError {
      if (this.#error === undefined) {
        const ctx = this.#ctx;
        this.#error = new z.ZodRealError((this.#issues ?? []).map((issue) => z.core.util.finalizeIssue(issue, ctx, z.core.config())));
        this.#release();
      }
      return this.#error;
    },
    set(this: LazyFailure, error: z.ZodError): void {
      this.#error = error;
      this.#release();
    },
  };

  constructor(issues: readonly RawIssue[], ctx: ParseContext) {
    this.#issues = issues;
    this.#ctx = ctx;
    Object.defineProperty(this, "error", LazyFailure.#errorProperty);
  }

  /** The raw issues hold the parsed input; once the error exists they have nothing left to do. */
  #release(): void {
    this.#issues = undefined;
    this.#ctx = undefined;
  }
}

/**
 * Gives `schema` a `safeParse` of its own that behaves as zod's but returns failures that share one
 * hidden class (see the top of this file). Returns `schema`, so it wraps an export's last step:
 * methods such as `.describe()` return a new schema without it.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Port = withSharedFailureShape(z.number().int());
 * Port.safeParse("80").success; // => false
 * ```
 * @internal
 */
export function withSharedFailureShape<S extends z.ZodType>(schema: S): S {
  const safeParse = (data: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>): z.ZodSafeParseResult<z.output<S>> => {
    const ctx: ParseContext = params === undefined ? { async: false } : { ...params, async: false };
    const result = schema._zod.run({ value: data, issues: [] }, ctx);
    if (result instanceof Promise) throw new z.core.$ZodAsyncError();
    if (result.issues.length === 0) return { success: true, data: result.value as z.output<S> };
    return new LazyFailure(result.issues, ctx) as unknown as z.ZodSafeParseResult<z.output<S>>;
  };
  Object.defineProperty(schema, "safeParse", { value: safeParse, configurable: true, writable: true });
  return schema;
}
