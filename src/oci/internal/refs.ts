import { CocoonError, isCocoonError } from "../../errors.js";
import { checkUploadDigest } from "../digest.js";
import { parseDigestReference, parseReference, parseRepository, type Reference, type RepositoryName } from "../reference.js";

function wrapped<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const message = isCocoonError(err) ? err.message : String(err);
    throw new CocoonError("ERR_INVALID_REFERENCE", `${prefix}: ${message}`, { cause: err });
  }
}

/**
 * Names the manifest `reference` (a tag, or a digest when it holds a `:`) of `repo` under `base`,
 * as Go's `OCIRegistry.parseRef` does: `base/repo:tag` or `base/repo@digest`.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE`: `parse ref <repo><sep><reference>: could not parse reference: …`.
 */
export function manifestRef(base: string, repo: string, reference: string): Reference {
  const sep = reference.includes(":") ? "@" : ":";
  return wrapped(`parse ref ${repo}${sep}${reference}`, () => parseReference(`${base}/${repo}${sep}${reference}`));
}

/**
 * Names a blob of `repo` under `base` for a download or a probe, as Go's `GetBlob`/`HasBlob` do.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE`: `parse digest <repo>@<digest>: …`.
 */
export function blobRef(base: string, repo: string, digest: string): Reference {
  return wrapped(`parse digest ${repo}@${digest}`, () => parseDigestReference(`${base}/${repo}@${digest}`));
}

/**
 * Names the repository `repo` under `base` that a blob is uploaded to.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE`: `parse repo <repo>: …`.
 */
export function repositoryRef(base: string, repo: string): RepositoryName {
  return wrapped(`parse repo ${repo}`, () => parseRepository(`${base}/${repo}`));
}

/**
 * Names the repository a blob is uploaded to and checks its digest, as Go's `PutBlob` does.
 *
 * @throws CocoonError `ERR_INVALID_REFERENCE`: `parse repo <repo>: …` or `parse digest <digest>: …`.
 */
export function uploadRef(base: string, repo: string, digest: string): RepositoryName {
  const repository = repositoryRef(base, repo);
  wrapped(`parse digest ${digest}`, () => checkUploadDigest(digest));
  return repository;
}
