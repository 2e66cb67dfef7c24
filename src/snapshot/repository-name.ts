import { CocoonError, isCocoonError } from "../errors.js";
import { parseRelativeReference, parseRelativeRepository, type RelativeReference } from "../oci/reference.js";

function refused(what: string, text: unknown, err: unknown): CocoonError {
  const why = isCocoonError(err) ? err.message : String(err);
  return new CocoonError("ERR_INVALID_REFERENCE", `${what} ${JSON.stringify(String(text))}: ${why}`, {
    cause: err,
  });
}

/**
 * Checks a repository (VM) name by the one reference parser before it names anything in a request.
 *
 * @example
 * ```ts
 * checkRepositoryName("snapshot stream: name", "vm-a"); // passes
 * checkRepositoryName("snapshot stream: name", "vm-a/../../etc"); // throws ERR_INVALID_REFERENCE
 * ```
 * @param what - Names the name in the message: `snapshot push: name`.
 * @throws CocoonError `ERR_INVALID_REFERENCE` naming `what`, for a name such as `..` or `vm/../x`.
 */
export function checkRepositoryName(what: string, name: string): void {
  try {
    parseRelativeRepository(name);
  } catch (err) {
    throw refused(what, name, err);
  }
}

/** A registry-relative reference split by the one parser: the repository, and the tag or digest. */
export interface SplitReference {
  /** The repository (VM name). */
  readonly name: string;
  /** The tag (default `latest`) or the `sha256:<hex>` digest (a tag before a digest is dropped). */
  readonly ref: string;
}

/**
 * Parses `vm`, `vm:tag` or `vm[:tag]@sha256:<hex>` with `./oci`'s reference parser.
 *
 * @example
 * ```ts
 * splitRelativeReference("snapshot pull: reference", "vm-a:hibernate"); // => { name: "vm-a", ref: "hibernate" }
 * splitRelativeReference("snapshot pull: reference", "vm-a"); // => { name: "vm-a", ref: "latest" }
 * ```
 * @param what - Names the reference in the message: `snapshot pull: reference`.
 * @throws CocoonError `ERR_INVALID_REFERENCE` naming `what`, before any request.
 */
export function splitRelativeReference(what: string, reference: string): SplitReference {
  if (typeof reference !== "string") throw refused(what, reference, "it must be a string");
  let parsed: RelativeReference;
  try {
    parsed = parseRelativeReference(reference);
  } catch (err) {
    throw refused(what, reference, err);
  }
  return { name: parsed.repository, ref: parsed.identifier };
}
