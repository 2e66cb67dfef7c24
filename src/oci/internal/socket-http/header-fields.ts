/** A field name as `Headers` accepts it: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/u;
/** What `Headers` refuses in a value once trimmed: NUL, CR, LF, and anything past latin1 (not a byte string). */
const BAD_VALUE = /[\0\r\n\u0100-\uffff]/u;
/** The blanks `Headers` trims from each end of a value. */
const EDGE_BLANKS = /^[\t\n\r ]+|[\t\n\r ]+$/gu;

/**
 * Header fields by lower-cased name, a repeated field's values joined with ", ": what `Headers`
 * keeps, without it (Node's `Headers` loads its whole undici bundle).
 */
export class HeaderFields {
  readonly #fields = new Map<string, string>();

  /**
   * The fields of a `fetch` `headers` option (a record, pairs, or any iterable of pairs such as a
   * `Headers`), checked as `Headers` checks them.
   *
   * @throws TypeError for a name that is not a token or a value with CR, LF, NUL or a char past latin1.
   */
  static of(init: RequestInit["headers"]): HeaderFields {
    const fields = new HeaderFields();
    if (init === undefined) return fields;
    const pairs: Iterable<readonly unknown[]> = Symbol.iterator in init ? (init as Iterable<readonly unknown[]>) : Object.entries(init);
    for (const pair of pairs) {
      if (pair.length !== 2) throw new TypeError("Headers: a header pair must have a name and a value");
      fields.append(String(pair[0]), String(pair[1]));
    }
    return fields;
  }

  /** Adds a value to `name`, after any it has. @throws TypeError as {@link HeaderFields.of} does. */
  append(name: string, value: string): void {
    const [key, checked] = checkField(name, value);
    const had = this.#fields.get(key);
    this.#fields.set(key, had === undefined ? checked : `${had}, ${checked}`);
  }

  /** Replaces the values of `name`. @throws TypeError as {@link HeaderFields.of} does. */
  set(name: string, value: string): void {
    this.#fields.set(...checkField(name, value));
  }

  /** The values of `name`, joined; `null` when absent. */
  get(name: string): string | null {
    return this.#fields.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#fields.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string) => void): void {
    this.#fields.forEach(callback);
  }

  /** `[name, value]` pairs, names lower-cased, in the order first set. */
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#fields.entries();
  }
}

/** A field from a parsed response head, already checked: lower-cased name, trimmed value. */
export function responseFields(fields: readonly (readonly [string, string])[]): HeaderFields {
  const out = new HeaderFields();
  for (const [name, value] of fields) out.append(name, value);
  return out;
}

function checkField(name: string, value: string): [string, string] {
  if (!TOKEN.test(name)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(name)}`);
  const trimmed = value.replace(EDGE_BLANKS, "");
  if (BAD_VALUE.test(trimmed)) throw new TypeError(`Headers: invalid value for header ${JSON.stringify(name)}`);
  return [name.toLowerCase(), trimmed];
}
