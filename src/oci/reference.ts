import { badName, ggcrDigest, ggcrRepository, ggcrTag, pathSafe, relativePath, type Identified } from "./internal/ggcr-name.js";

/** A repository in a registry, as go-containerregistry's `name.Repository` resolves it. */
export interface RepositoryName {
  /** Registry host (with port), `index.docker.io` when none is given. */
  readonly registry: string;
  /** Repository path, with `library/` added for a one-part Docker Hub name. */
  readonly repository: string;
  /** `registry/repository`. */
  readonly context: string;
  /** `http` or `https`, as go-containerregistry guesses it from the host (see {@link parseReference}). */
  readonly scheme: "http" | "https";
}

/** A parsed tag or digest reference (go-containerregistry's `name.Tag` / `name.Digest`). */
export interface Reference extends RepositoryName {
  /** Whether the reference names a tag or a digest. */
  readonly kind: "tag" | "digest";
  /** The tag (default `latest`) or the `sha256:<hex>` digest. */
  readonly identifier: string;
  /** Fully qualified: `context:tag` or `context@digest`. */
  readonly name: string;
  /** The text that was parsed, unchanged. */
  readonly string: string;
}

const withNames = (repo: RepositoryName & Identified, sep: ":" | "@", text: string): Reference => ({
  ...repo,
  name: `${repo.context}${sep}${repo.identifier}`,
  string: text,
});
const contextOf = (repo: RepositoryName): string => repo.context;

/**
 * Parses `[registry/]repository` as go-containerregistry's `name.NewRepository` does (default
 * options), and then refuses a `.` or `..` path component, which go-containerregistry accepts.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message, or
 * `repository can not contain a "." or ".." path component: <repository>`.
 */
export function parseRepository(text: string): RepositoryName {
  return pathSafe(ggcrRepository(text));
}

/**
 * Parses `[registry/]repository[:tag]` as go-containerregistry's `name.NewTag` does, and then
 * refuses a `.` or `..` path component (see {@link parseRepository}).
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message.
 */
export function parseTag(text: string): Reference {
  return pathSafe(withNames(ggcrTag(text, ggcrRepository), ":", text));
}

/**
 * Parses `[registry/]repository[:tag]@sha256:<hex>` as go-containerregistry's `name.NewDigest`
 * does, and then refuses a `.` or `..` path component (see {@link parseRepository}).
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message.
 */
export function parseDigestReference(text: string): Reference {
  return pathSafe(withNames(ggcrDigest(text, ggcrRepository, contextOf), "@", text));
}

/**
 * Parses a tag or digest reference as go-containerregistry's `name.ParseReference` does, which is
 * how Go cocoon-common's `oci` names every manifest and blob.
 *
 * The scheme is go-containerregistry's guess (it also sends plain HTTP to RFC 1918 hosts); this
 * package's own client only speaks plain HTTP to loopback hosts or hosts listed as insecure.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE`: `could not parse reference: <text>`.
 * @example
 * ```ts
 * parseReference("localhost:5000/vm-1:hibernate");
 * // => { kind: "tag", registry: "localhost:5000", repository: "vm-1", identifier: "hibernate", scheme: "http", … }
 * ```
 */
export function parseReference(text: string): Reference {
  for (const parse of [parseTag, parseDigestReference]) {
    try {
      return parse(text);
    } catch {
      // try the next form
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- JS callers may pass a non-string
  throw badName(`could not parse reference: ${String(text)}`);
}

/** A registry-relative reference: a repository path under a registry's base, and its tag or digest. */
export interface RelativeReference extends Identified {
  /** The repository path as written (a VM name): never a registry, never `library/`-prefixed. */
  readonly repository: string;
}

/**
 * Checks a registry-relative repository path (`vm-a`, `ns/vm_1`) by the rules {@link parseRepository}
 * holds the path after a registry to, except its length bounds, which only the name joined under
 * a registry's base can be held to.
 *
 * @example
 * ```ts
 * parseRelativeRepository("ns/vm-a"); // => { repository: "ns/vm-a" }
 * ```
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message, or the `.`/`..` refusal.
 * @internal
 */
export function parseRelativeRepository(text: string): { readonly repository: string } {
  if (typeof text !== "string") throw badName("a repository name must be a string");
  return pathSafe(relativePath(text));
}

/**
 * Parses a registry-relative `repository[:tag]` or `repository[:tag]@sha256:<hex>` as
 * {@link parseReference} reads the same text after `<registry>/`, with the whole text before the
 * tag or digest taken as the repository path (see {@link parseRelativeRepository}).
 *
 * @example
 * ```ts
 * parseRelativeReference("vm-1:hibernate"); // => { repository: "vm-1", kind: "tag", identifier: "hibernate" }
 * parseRelativeReference("localhost:5000/vm-1"); // throws ERR_INVALID_REFERENCE (a registry is no repository path)
 * ```
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message for the tag
 * (`NewTag`) or, when the text holds an `@`, the digest (`NewDigest`) form.
 * @internal
 */
export function parseRelativeReference(text: string): RelativeReference {
  if (typeof text !== "string") throw badName(`could not parse reference: ${String(text)}`);
  // NewTag refuses every text with an `@` (neither a tag nor a path may hold one), so this picks the form ParseReference would.
  const parsed = text.includes("@") ? ggcrDigest(text, relativePath, (r) => r.repository) : ggcrTag(text, relativePath);
  return pathSafe(parsed);
}
