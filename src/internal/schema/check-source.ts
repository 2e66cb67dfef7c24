// A zod schema's verdict, written out as TypeScript: the watch's hot path checks an object in place
// with plain property tests, as a hand-written check would, and loads no zod. The generator writes
// the source into a `.generated.ts` file; a test regenerates it and compares, so a schema edit
// that is not regenerated fails.
import { checkTagOf } from "./check-tag.js";
import { WRAPPERS, asSchema, hasChecks, type SchemaDef, type SchemaLike } from "./zod-def.js";

/** What the generated module is called and imports. */
export interface CheckSourceOptions {
  /** The exported function's name (`acceptWatchedPod`). */
  readonly name: string;
  /** The TypeScript type the accepted object has (`WatchedPod`). */
  readonly type: string;
  /** Import lines the generated code needs: the type and every tagged predicate. */
  readonly imports: readonly string[];
  /** The first line: where the file comes from. */
  readonly header: string;
  /** The exported function's TSDoc, one string per line. */
  readonly doc: readonly string[];
}

const HELPERS: Readonly<Record<string, string>> = {
  isObject:
    'const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);',
  isString: 'const isString: Check = (value) => typeof value === "string";',
  isBoolean: 'const isBoolean: Check = (value) => typeof value === "boolean";',
  onlyKeys:
    "const onlyKeys = (value: object, keys: ReadonlySet<string>): boolean => {\n  for (const key in value) if (!keys.has(key)) return false;\n  return true;\n};",
};

const LEAVES: Readonly<Record<string, string>> = {
  string: "isString",
  boolean: "isBoolean",
};

/**
 * The source of a module exporting `options.name(raw: unknown): Type | undefined`: `raw` itself
 * when `schema` accepts it, with its top-level defaults filled in place, else `undefined` (and
 * `raw` untouched). Covers objects (loose or stripping), arrays, string-keyed records, strings,
 * booleans, safe integers, literals, enums, optional and nullable values, defaults of top-level
 * fields, strict objects (no key but the shape's), a string's minimum length, an integer's lower
 * bound, and refinements tagged with {@link checkTag}.
 *
 * @throws `TypeError` for a construct it does not cover (the generator fails, not the check).
 * @internal
 */
export function checkSource(source: object, options: CheckSourceOptions): string {
  const schema = asSchema(source);
  const consts: string[] = [];
  const used = new Set<string>(["isObject"]);
  const named = new Map<SchemaLike, string>();
  const keySets: string[] = [];

  /** The name of a check function for `s`, declared once. */
  function fn(s: SchemaLike, path: string): string {
    const leaf = LEAVES[s.def.type];
    if (leaf !== undefined && !hasChecks(s.def)) {
      used.add(leaf);
      return leaf;
    }
    const known = named.get(s);
    if (known !== undefined) return known;
    const name = nameOf(path, named);
    named.set(s, name);
    const body = test(s, "v", path).split(TOP_AND).join(" &&\n  ");
    consts.push(`const ${name}: Check = (v) =>\n  ${body};`);
    return name;
  }

  /** A boolean expression: whether `ref` passes `s`. */
  function test(s: SchemaLike, ref: string, path: string): string {
    const def = s.def;
    switch (def.type) {
      case "optional":
        return `(${ref} === undefined || ${test(inner(s, path), ref, path)})`;
      case "nullable":
        return `(${ref} === null || ${test(inner(s, path), ref, path)})`;
    }
    if (WRAPPERS.has(def.type)) throw new TypeError(`${path}: a zod ${def.type} is covered only on a top-level field`);
    if (def.type === "object" && ref !== "v") return `${fn(s, path)}(${ref})`;
    const refined = checkTagOf(s);
    const bounds = refined === undefined ? boundsOf(def, ref) : [];
    const formatOnly = def.check === undefined || (def.type === "number" && def.format === "safeint");
    if (refined === undefined && (bounds === undefined || !formatOnly))
      throw new TypeError(`${path}: refined without a checkTag naming its predicate`);
    const base = [structural(s, ref, path), ...(bounds ?? [])].join(" && ");
    if (refined === undefined) return base;
    const arg = refined.field === undefined ? ref : `${ref}[${JSON.stringify(refined.field)}]`;
    return `${base} && ${refined.predicate}(${arg} as Parameters<typeof ${refined.predicate}>[0])`;
  }

  function structural(s: SchemaLike, ref: string, path: string): string {
    const def = s.def;
    switch (def.type) {
      case "string":
        return `typeof ${ref} === "string"`;
      case "boolean":
        return `typeof ${ref} === "boolean"`;
      case "number":
        if (def.format === "safeint") return `Number.isSafeInteger(${ref})`;
        break;
      case "literal":
        return oneOf(ref, def.values ?? []);
      case "enum":
        return oneOf(ref, Object.values(def.entries ?? {}));
      case "array":
        if (def.element === undefined) break;
        return `Array.isArray(${ref}) && (${ref} as unknown[]).every(${fn(def.element, `${path}[]`)})`;
      case "record":
        if (def.valueType === undefined || def.keyType?.def.type !== "string" || hasChecks(def.keyType.def)) break;
        used.add("isObject");
        return `isObject(${ref}) && Object.values(${ref}).every(${fn(def.valueType, `${path}{}`)})`;
      case "object": {
        const strict = def.catchall?.def.type === "never";
        if (def.catchall !== undefined && def.catchall.def.type !== "unknown" && !strict) break;
        const shape = Object.entries(def.shape ?? {});
        const fields = shape.map(([key, field]) => test(field, `v[${JSON.stringify(key)}]`, `${path}.${key}`));
        used.add("isObject");
        if (strict) {
          used.add("onlyKeys");
          const keys = `KEYS_${String(keySets.length)}`;
          keySets.push(`const ${keys}: ReadonlySet<string> = new Set(${JSON.stringify(shape.map(([key]) => key))});`);
          fields.push(`onlyKeys(v, ${keys})`);
        }
        return ["isObject(v)", ...fields].join(TOP_AND);
      }
    }
    throw new TypeError(`${path}: a zod ${def.type} is not covered by the generated check`);
  }

  const root = schema.def;
  if (root.type !== "object" || hasChecks(root)) throw new TypeError("value: the generated check starts from a plain zod object");
  const rootStrict = root.catchall?.def.type === "never";
  if (root.catchall !== undefined && root.catchall.def.type !== "unknown" && !rootStrict)
    throw new TypeError("value: the generated check starts from a plain zod object");
  const fills: string[] = [];
  const rootTests = Object.entries(root.shape ?? {}).map(([key, field]) => {
    const ref = `raw[${JSON.stringify(key)}]`;
    if (field.def.type !== "default") return test(field, ref, `value.${key}`);
    const value = JSON.stringify(field.def.defaultValue);
    fills.push(`  ${ref} ??= ${value};`);
    return `(${ref} === undefined || ${test(inner(field, key), ref, `value.${key}`)})`;
  });
  if (rootStrict) {
    used.add("onlyKeys");
    keySets.push(`const KEYS: ReadonlySet<string> = new Set(${JSON.stringify(Object.keys(root.shape ?? {}))});`);
    rootTests.push("onlyKeys(raw, KEYS)");
  }
  return [
    options.header,
    ...options.imports,
    "",
    ...(consts.length > 0 || used.has("isString") || used.has("isBoolean") ? ["type Check = (value: unknown) => boolean;", ""] : []),
    ...Object.entries(HELPERS)
      .filter(([helper]) => used.has(helper))
      .map(([, line]) => line),
    ...keySets,
    ...consts,
    "",
    "/**",
    ...options.doc.map((line) => (line === "" ? " *" : ` * ${line}`)),
    " */",
    `export function ${options.name}(raw: unknown): ${options.type} | undefined {`,
    "  if (!isObject(raw)) return undefined;",
    "  if (",
    "    !(",
    `      ${rootTests.join(" &&\n      ")}`,
    "    )",
    "  )",
    "    return undefined;",
    ...fills,
    `  return raw as ${options.type};`,
    "}",
    "",
  ].join("\n");
}

/** Joins the field tests of one object, so that the generated code puts one on a line. */
const TOP_AND = " &&\u0000 ";

/** `isMetadataOwnerReferencesItem` for `value.metadata.ownerReferences[]`; unique among `taken`. */
function nameOf(path: string, taken: ReadonlyMap<SchemaLike, string>): string {
  const words = path
    .replace(/^value\.?/, "")
    .replaceAll("[]", ".item")
    .replaceAll("{}", ".value")
    .split(".")
    .filter((w) => w !== "");
  const base = `is${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("") || "Value"}`;
  const names = new Set(taken.values());
  let name = base;
  for (let i = 2; names.has(name); i++) name = `${base}${String(i)}`;
  return name;
}

/** The tests of a string's `min_length` and a number's `greater_than` checks; `undefined` when it has another. */
function boundsOf(def: SchemaDef, ref: string): string[] | undefined {
  const out: string[] = [];
  for (const check of def.checks ?? []) {
    const c = (check as { _zod?: { def?: { check?: string; minimum?: unknown; value?: unknown; inclusive?: boolean } } })._zod?.def;
    if (def.type === "string" && c?.check === "min_length" && typeof c.minimum === "number")
      out.push(`${ref}.length >= ${String(c.minimum)}`);
    else if (def.type === "number" && c?.check === "greater_than" && typeof c.value === "number")
      out.push(`(${ref} as number) ${c.inclusive === true ? ">=" : ">"} ${String(c.value)}`);
    else return undefined;
  }
  return out;
}

function inner(s: SchemaLike, path: string): SchemaLike {
  if (s.def.innerType === undefined) throw new TypeError(`${path}: a zod ${s.def.type} without an inner type`);
  return s.def.innerType;
}

function oneOf(ref: string, values: readonly unknown[]): string {
  if (values.length === 0 || !values.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean"))
    throw new TypeError(`a literal of ${JSON.stringify(values)} is not covered by the generated check`);
  const tests = values.map((v) => `${ref} === ${JSON.stringify(v)}`);
  return tests.length === 1 ? (tests[0] ?? "") : `(${tests.join(" || ")})`;
}
