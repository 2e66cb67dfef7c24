// A zod 4 schema seen through its public `def`, structurally: src/internal loads no package, yet the
// Go tables and the generated checks are derived by walking the schemas the entry points define.

/** The parts of a zod 4 schema's public `def` the walkers read. */
export interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, SchemaLike>> | undefined;
  readonly catchall?: SchemaLike | undefined;
  readonly element?: SchemaLike | undefined;
  readonly keyType?: SchemaLike | undefined;
  readonly valueType?: SchemaLike | undefined;
  readonly innerType?: SchemaLike | undefined;
  readonly items?: readonly SchemaLike[] | undefined;
  readonly rest?: SchemaLike | null | undefined;
  readonly options?: readonly SchemaLike[] | undefined;
  readonly defaultValue?: unknown;
  readonly values?: readonly unknown[] | undefined;
  readonly entries?: Readonly<Record<string, unknown>> | undefined;
  readonly checks?: readonly unknown[] | undefined;
  readonly check?: string | undefined;
  readonly format?: string | undefined;
}

/**
 * A zod 4 schema, as far as the walkers read it. The walkers take any `object` and read it as this:
 * zod's own types say `_zod.def` for core schemas, while every classic schema has the public `def`.
 */
export interface SchemaLike {
  readonly def: SchemaDef;
}

/** The wrappers that change presence, not shape: walked through to the schema they wrap. */
export const WRAPPERS: ReadonlySet<string> = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional"]);

/** Whether the schema carries refinements or checks (a `.refine`, a format, a bound). */
export const hasChecks = (def: SchemaDef): boolean => (def.checks?.length ?? 0) > 0 || def.check !== undefined;

/** `schema` read as a zod 4 classic schema. */
export const asSchema = (schema: object): SchemaLike => schema as SchemaLike;
