// zod's own `safeParse` (4.6) returns each failure as an object literal with a getter and a setter
// closing over that failure's state. V8 builds such a literal as a dictionary-mode object, a hash
// table of its own per result, and a loop of failing CocoonSet parses spent about a third of its
// time in the collector, with full collections where a valid parse has none. The failures here
// share one fast hidden class: one accessor pair for all, the state in private fields. What a
// caller sees is zod's: `success`, then `error` (own, enumerable, built on first read,
// replaceable), the same issues and messages.
//
// The parse runs through the schema's Standard Schema `validate`, zod's public interface that
// answers with the finalized issues and no lazy literal; only a parse with its own params (an
// error map) goes through zod's `safeParse`. `BENCHMARKS.md`, "Adapters to peers' private parts".
import { z } from "zod";

type Issues = readonly z.core.$ZodIssue[];
type SafeParseParams = z.core.ParseContext<z.core.$ZodIssue>;

/** A failed `safeParse` whose error is built on its first read, as zod's is. */
class LazyFailure {
  readonly success = false;
  #issues: Issues | undefined;
  #error: z.ZodError | undefined;

  static readonly #errorProperty: PropertyDescriptor = {
    configurable: true,
    enumerable: true,
    get(this: LazyFailure): z.ZodError {
      if (this.#error === undefined) {
        this.#error = new z.ZodRealError(this.#issues?.slice() ?? []);
        this.#issues = undefined;
      }
      return this.#error;
    },
    set(this: LazyFailure, error: z.ZodError): void {
      this.#error = error;
      this.#issues = undefined;
    },
  };

  constructor(issues: Issues) {
    this.#issues = issues;
    Object.defineProperty(this, "error", LazyFailure.#errorProperty);
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
  const standard = schema["~standard"];
  const zodSafeParse = (data: unknown, params?: SafeParseParams) => z.safeParse(schema, data, params) as z.ZodSafeParseResult<z.output<S>>;
  const safeParse = (data: unknown, params?: SafeParseParams): z.ZodSafeParseResult<z.output<S>> => {
    if (params !== undefined) return zodSafeParse(data, params);
    const result = standard.validate(data);
    if (result instanceof Promise) {
      // An async check, or one that threw: `validate` retries it async; zod's `safeParse` throws what zod throws.
      result.catch(() => undefined);
      return zodSafeParse(data);
    }
    if (result.issues === undefined) return { success: true, data: result.value };
    return new LazyFailure(result.issues as Issues) as unknown as z.ZodSafeParseResult<z.output<S>>;
  };
  Object.defineProperty(schema, "safeParse", { value: safeParse, configurable: true, writable: true });
  return schema;
}
