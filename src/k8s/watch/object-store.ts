import type { z } from "zod";
import { stringAt } from "../../internal/safe-read.js";
import { UnexpectedObjectError } from "../resources/unexpected-object-error.js";
import type { WatchChange, WatchEvent } from "./watch-event.js";

/**
 * An object that did not parse, kept in the store so that a relist still sees it (and reports
 * its deletion) and an unchanged copy is not reported again. It holds what the server sent and
 * nothing more: the error (zod's issues, a stack) is made when asked for, and handed out once,
 * so that invalid objects cost what valid ones do per byte.
 *
 * @internal
 */
export class InvalidObject {
  /** What the server sent. */
  readonly raw: unknown;
  readonly #schema: z.ZodType | (() => z.ZodType);
  readonly #kind: string;
  #first: UnexpectedObjectError | undefined;

  /**
   * @param schema - The schema, or a function giving it once loaded: a watch with a fast check loads
   *   zod only to explain a refusal, and delivers the `invalid` event once it is loaded.
   * @param error - Why it did not parse, when the schema said so already.
   */
  constructor(raw: unknown, schema: z.ZodType | (() => z.ZodType), kind: string, error?: UnexpectedObjectError) {
    this.raw = raw;
    this.#schema = schema;
    this.#kind = kind;
    this.#first = error;
  }

  /** Whether the error found when it was parsed is held (not yet handed out). */
  get explained(): boolean {
    return this.#first !== undefined;
  }

  /** Why it does not parse: the error found when it was parsed, the first time; parsed again after. */
  get error(): UnexpectedObjectError {
    const first = this.#first;
    this.#first = undefined;
    if (first !== undefined) return first;
    const schema = typeof this.#schema === "function" ? this.#schema() : this.#schema;
    const result = schema.safeParse(this.raw);
    return unexpected(this.#kind, this.raw, result.success ? [] : result.error.issues, result.error);
  }
}

/** What the store holds per object: the parsed object, or why it did not parse. @internal */
export type StoredObject<T> = T | InvalidObject;

/**
 * Parses one object from the server with `schema`, never throwing: an object that does not
 * parse comes back as an {@link InvalidObject}.
 *
 * @internal
 */
export function parseWatched<T>(schema: z.ZodType<T>, kind: string, raw: unknown): StoredObject<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  return new InvalidObject(raw, schema, kind, unexpected(kind, raw, result.error.issues, result.error));
}

function unexpected(kind: string, raw: unknown, issues: readonly z.core.$ZodIssue[], cause: unknown): UnexpectedObjectError {
  return new UnexpectedObjectError(kind, stringAt(raw, "metadata", "namespace"), stringAt(raw, "metadata", "name"), issues, { cause });
}

/** The event that reports `change` of `stored`. @internal */
export function changeEvent<T>(change: WatchChange, stored: StoredObject<T>): WatchEvent<T> {
  if (!(stored instanceof InvalidObject)) return { type: change, object: stored };
  if (stored.explained) return { type: "invalid", change, object: stored.raw, error: stored.error };
  // Refused by a fast check: the error is made when first read, once the schema that explains it is loaded (see resourceWatch).
  let error: UnexpectedObjectError | undefined;
  return {
    type: "invalid",
    change,
    object: stored.raw,
    get error() {
      return (error ??= stored.error);
    },
  };
}

/** The `metadata.resourceVersion` of a stored object (of what the server sent, for an invalid one). @internal */
export function storedResourceVersion(stored: StoredObject<unknown>): string {
  return stringAt(stored instanceof InvalidObject ? stored.raw : stored, "metadata", "resourceVersion");
}

/**
 * The objects a watch has seen, by namespace, then name. Names are the object's own strings, so
 * the keys cost no memory of their own.
 *
 * @internal
 */
export class ObjectStore<T> {
  readonly #namespaces = new Map<string, Map<string, StoredObject<T>>>();

  /** The stored object `namespace/name`, parsed or not. */
  get(namespace: string, name: string): StoredObject<T> | undefined {
    return this.#namespaces.get(namespace)?.get(name);
  }

  set(namespace: string, name: string, stored: StoredObject<T>): void {
    let names = this.#namespaces.get(namespace);
    if (names === undefined) this.#namespaces.set(namespace, (names = new Map<string, StoredObject<T>>()));
    names.set(name, stored);
  }

  delete(namespace: string, name: string): void {
    const names = this.#namespaces.get(namespace);
    if (names?.delete(name) === true && names.size === 0) this.#namespaces.delete(namespace);
  }

  /** The parsed objects of `namespace`, or of every namespace; objects that did not parse are left out. */
  list(namespace?: string): T[] {
    const one = namespace === undefined ? undefined : this.#namespaces.get(namespace);
    const groups = namespace === undefined ? [...this.#namespaces.values()] : one === undefined ? [] : [one];
    const objects: T[] = [];
    for (const names of groups) for (const stored of names.values()) if (!(stored instanceof InvalidObject)) objects.push(stored);
    return objects;
  }

  /** Removes every object not in `kept`, calling `removed` for each (in namespace, then insertion order). */
  sweep(kept: ReadonlySet<StoredObject<T>>, removed: (stored: StoredObject<T>) => void): void {
    for (const [namespace, names] of this.#namespaces) {
      for (const [name, stored] of names) {
        if (kept.has(stored)) continue;
        names.delete(name);
        removed(stored);
      }
      if (names.size === 0) this.#namespaces.delete(namespace);
    }
  }
}
