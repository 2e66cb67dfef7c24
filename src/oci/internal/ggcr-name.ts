// The one reference grammar: go-containerregistry's `name` package (default options), every
// reference view of `./oci` and `./snapshot` goes through it (reference.ts, relative-ref.ts).
import { CocoonError } from "../../errors.js";
import { canonicalDigestProblem } from "../digest.js";
import { ggcrScheme, isURIAuthority } from "./registry-host.js";

/** A repository in a registry, as go-containerregistry's `name.Repository` resolves it. */
export interface GgcrRepository {
  readonly registry: string;
  readonly repository: string;
  readonly context: string;
  readonly scheme: "http" | "https";
}

/** A repository path alone, relative to a registry's base. */
export interface RelativePath {
  readonly repository: string;
}

/** What a tag or digest split adds to its repository. */
export interface Identified {
  readonly kind: "tag" | "digest";
  /** The tag (default `latest`) or the `sha256:<hex>` digest. */
  readonly identifier: string;
}

const REPOSITORY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-./";
const TAG_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-.ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DEFAULT_REGISTRY = "index.docker.io";

/** go-containerregistry's `name.defaultTag`. */
export const DEFAULT_TAG = "latest";

/** An `ERR_INVALID_REFERENCE` with `message`. */
export const badName = (message: string): CocoonError => new CocoonError("ERR_INVALID_REFERENCE", message);

function checkChars(kind: string, element: string, allowed: string): void {
  for (const r of element) if (!allowed.includes(r)) throw badName(`${kind} can only contain the characters \`${allowed}\`: ${element}`);
}

function checkElement(kind: string, element: string, allowed: string, min: number, max: number): void {
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points, as Go counts runes
  const runes = [...element].length;
  if (runes < min || runes > max) throw badName(`${kind} must be between ${min} and ${max} characters in length: ${element}`);
  checkChars(kind, element, allowed);
}

/** go-containerregistry's `name.NewRepository`, exactly. */
export function ggcrRepository(text: string): GgcrRepository {
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

/**
 * A repository path under a registry's base, read by `name.NewRepository`'s path rules: never a
 * registry, and no length bounds, which only the joined name can be held to.
 */
export function relativePath(text: string): RelativePath {
  if (text.length === 0) throw badName("a repository name must be specified");
  checkChars("repository", text, REPOSITORY_CHARS);
  return { repository: text };
}

/** go-containerregistry's `name.NewTag` split, with `repositoryOf` reading what comes before the tag. */
export function ggcrTag<R>(text: string, repositoryOf: (text: string) => R): R & Identified {
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
  return { ...repositoryOf(base), kind: "tag", identifier: tag === "" ? DEFAULT_TAG : tag };
}

/**
 * go-containerregistry's `name.NewDigest` split, with `repositoryOf` reading the repository; a tag
 * before the digest is dropped, what it was read from taken back by `textOf`.
 */
export function ggcrDigest<R>(text: string, repositoryOf: (text: string) => R, textOf: (repo: R) => string): R & Identified {
  const parts = text.split("@");
  if (parts.length !== 2) {
    throw badName(`a digest must contain exactly one '@' separator (e.g. registry/repository@digest) saw: ${text}`);
  }
  const [given, digest] = parts as [string, string];
  const problem = canonicalDigestProblem(digest);
  if (problem !== undefined) throw badName(problem);
  let base = given;
  try {
    base = textOf(ggcrTag(given, repositoryOf));
  } catch {
    // not a tag: read as a repository below, which reports the error
  }
  return { ...repositoryOf(base), kind: "digest", identifier: digest };
}

/**
 * Refuses a repository with a `.` or `..` path component, once go-containerregistry has taken it
 * (so every name it refuses keeps its message): a URL resolves such segments away, so
 * `vm-a/../../etc` would reach another path than it names.
 */
export function pathSafe<T extends { readonly repository: string }>(repo: T): T {
  if (repo.repository.split("/").some((c) => c === "." || c === ".."))
    throw badName(`repository can not contain a "." or ".." path component: ${repo.repository}`);
  return repo;
}
