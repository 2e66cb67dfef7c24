import { CocoonError } from "../errors.js";
import { canonicalDigestProblem } from "./digest.js";
import { ggcrScheme, isURIAuthority } from "./internal/registry-host.js";

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

const REPOSITORY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-./";
const TAG_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-.ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DEFAULT_REGISTRY = "index.docker.io";

/**
 * The tag a reference without one names (go-containerregistry's `name.defaultTag`, Go's
 * `ociutil.ParseRef`). A registry convention, not `SnapshotTag.Default`, which only shares its value.
 *
 * @internal
 */
export const DEFAULT_TAG = "latest";

const badName = (message: string): CocoonError => new CocoonError("ERR_INVALID_REFERENCE", message);

function checkElement(kind: string, element: string, allowed: string, min: number, max: number): void {
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points, as Go counts runes
  const runes = [...element];
  if (runes.length < min || runes.length > max) {
    throw badName(`${kind} must be between ${min} and ${max} characters in length: ${element}`);
  }
  if (runes.some((r) => !allowed.includes(r))) throw badName(`${kind} can only contain the characters \`${allowed}\`: ${element}`);
}

/** go-containerregistry's `name.NewRepository` (default options), exactly. */
function ggcrRepository(text: string): RepositoryName {
  if (text.length === 0) throw badName("a repository name must be specified");
  const slash = text.indexOf("/");
  const first = slash < 0 ? text : text.slice(0, slash);
  const hasRegistry = slash >= 0 && (first === "localhost" || /[.:]/.test(first));
  const path = hasRegistry ? text.slice(slash + 1) : text;
  checkElement("repository", path, REPOSITORY_CHARS, 2, 255);
  const given = hasRegistry ? first : "";
  if (!isURIAuthority(given)) throw badName(`registries must be valid RFC 3986 URI authorities: ${given}`);
  const registry = given === "" || given === "docker.io" ? DEFAULT_REGISTRY : given;
  const repository = registry === DEFAULT_REGISTRY && !path.includes("/") ? `library/${path}` : path;
  return { registry, repository, context: `${registry}/${repository}`, scheme: ggcrScheme(registry) };
}

/** go-containerregistry's `name.NewTag`, exactly. */
function ggcrTag(text: string): Reference {
  const parts = text.split(":");
  const last = parts[parts.length - 1] ?? "";
  let base = text;
  let tag = "";
  if (parts.length > 1 && !last.includes("/")) {
    base = parts.slice(0, -1).join(":");
    tag = last;
    if (tag === "") throw badName(`${text} must specify a tag name after the colon`);
    checkElement("tag", tag, TAG_CHARS, 1, 128);
  }
  const repo = ggcrRepository(base);
  const identifier = tag === "" ? DEFAULT_TAG : tag;
  return { ...repo, kind: "tag", identifier, name: `${repo.context}:${identifier}`, string: text };
}

/**
 * Refuses a repository with a `.` or `..` path component, once go-containerregistry has taken it
 * (so every name it refuses keeps its message): a URL resolves such segments away, so
 * `vm-a/../../etc` would reach another path than it names.
 */
function pathSafe<T extends RepositoryName>(repo: T): T {
  if (repo.repository.split("/").some((c) => c === "." || c === ".."))
    throw badName(`repository can not contain a "." or ".." path component: ${repo.repository}`);
  return repo;
}

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
  return pathSafe(ggcrTag(text));
}

/**
 * Parses `[registry/]repository[:tag]@sha256:<hex>` as go-containerregistry's `name.NewDigest`
 * does, and then refuses a `.` or `..` path component (see {@link parseRepository}).
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE` with go-containerregistry's message.
 */
export function parseDigestReference(text: string): Reference {
  const parts = text.split("@");
  if (parts.length !== 2) {
    throw badName(`a digest must contain exactly one '@' separator (e.g. registry/repository@digest) saw: ${text}`);
  }
  const [given, digest] = parts as [string, string];
  const problem = canonicalDigestProblem(digest);
  if (problem !== undefined) throw badName(problem);
  let base = given;
  try {
    base = ggcrTag(given).context; // a tag before the digest is dropped
  } catch {
    // not a tag: parsed as a repository below, which reports the error
  }
  const repo = ggcrRepository(base);
  return pathSafe({ ...repo, kind: "digest", identifier: digest, name: `${repo.context}@${digest}`, string: text });
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
