import { describe, expect, it } from "vitest";
import { readGoJSON } from "../internal/go-vectors.test-util.js";
import { referenceErrorOf } from "./internal/reference-error.test-util.js";
import { blobRef, manifestRef, uploadRef } from "./internal/refs.js";
import { parseDigestReference, parseReference, parseTag, type Reference } from "./reference.js";

type GgcrAnswer = (Omit<Reference, "kind"> & { kind: string }) | { error: string; newTagError: string; newDigestError: string };
interface RefVector {
  ref: string;
  ggcr: GgcrAnswer;
}
interface ManifestRefCase {
  base: string;
  repo: string;
  reference: string;
  error?: string;
  ref?: Reference & { manifestURL: string };
}
interface BlobRefCase {
  base: string;
  repo: string;
  digest: string;
  getBlobError?: string;
  putBlobError: string | null;
  getBlobRef?: Reference & { manifestURL: string };
  blobURL?: string;
}
const refs = readGoJSON<{ refs: RefVector[] }>("registry/ociutil.json").refs;
const oci = readGoJSON<{ manifestRefs: { cases: ManifestRefCase[] }; blobRefs: { cases: BlobRefCase[] } }>("registry/oci.json");

const urlOf = (ref: Reference, kind: "manifests" | "blobs"): string =>
  `${ref.scheme}://${ref.registry}/v2/${ref.repository}/${kind}/${ref.identifier}`;

describe("parseReference", () => {
  it("resolves a loopback tag with go-containerregistry's fields", () => {
    expect(parseReference("localhost:5000/vm-1:hibernate")).toEqual({
      kind: "tag",
      registry: "localhost:5000",
      repository: "vm-1",
      context: "localhost:5000/vm-1",
      identifier: "hibernate",
      name: "localhost:5000/vm-1:hibernate",
      scheme: "http",
      string: "localhost:5000/vm-1:hibernate",
    });
  });

  it.each([
    ["a[./aa", "registries must be valid RFC 3986 URI authorities: a[."],
    ["[1.2.3.4]/aa", "registries must be valid RFC 3986 URI authorities: [1.2.3.4]"],
    ["h%41.io/aa", "registries must be valid RFC 3986 URI authorities: h%41.io"],
  ])("refuses the registry of %j as Go's net/url does (found by the Go differential suite)", (text, tagError) => {
    expect([referenceErrorOf(() => parseReference(text)), referenceErrorOf(() => parseTag(text))]).toEqual([
      `could not parse reference: ${text}`,
      tagError,
    ]);
  });

  it.each([undefined, null, 1, {}])("throws a typed error, never a TypeError, on %s", (value) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- {} prints as the code under test prints it
    expect(referenceErrorOf(() => parseReference(value as string))).toBe(`could not parse reference: ${String(value)}`);
  });
});

describe("go-containerregistry name.ParseReference: Go's answers (ociutil.json)", () => {
  it("matches every one of the 220 references, errors included", () => {
    expect(refs.length).toBe(220);
    const ours = refs.map(({ ref }) => {
      try {
        return { ref, ggcr: parseReference(ref) as GgcrAnswer };
      } catch (err) {
        const error = (err as Error).message;
        return {
          ref,
          ggcr: {
            error,
            newTagError: referenceErrorOf(() => parseTag(ref)),
            newDigestError: referenceErrorOf(() => parseDigestReference(ref)),
          },
        };
      }
    });
    expect(ours).toEqual(refs.map(({ ref, ggcr }) => ({ ref, ggcr })));
  });
});

describe("OCIRegistry reference building: Go's answers (oci.json)", () => {
  it("names every manifest as Go does (287 cases)", () => {
    const cases = oci.manifestRefs.cases;
    expect(cases.length).toBe(287);
    for (const c of cases) {
      const error = referenceErrorOf(() => manifestRef(c.base, c.repo, c.reference));
      expect({ error }).toEqual({ error: c.error ?? null });
      if (c.ref === undefined) continue;
      const ref = manifestRef(c.base, c.repo, c.reference);
      const { manifestURL, ...fields } = c.ref;
      expect({ ...fields, url: urlOf(ref, "manifests") }).toEqual({ ...pick(ref, Object.keys(fields)), url: manifestURL });
    }
  });

  it("names every blob for download and upload as Go does (96 cases)", () => {
    const cases = oci.blobRefs.cases;
    expect(cases.length).toBe(96);
    for (const c of cases) {
      expect(referenceErrorOf(() => blobRef(c.base, c.repo, c.digest))).toBe(c.getBlobError ?? null);
      expect(referenceErrorOf(() => uploadRef(c.base, c.repo, c.digest))).toBe(c.putBlobError);
      if (c.getBlobRef === undefined) continue;
      const ref = blobRef(c.base, c.repo, c.digest);
      expect(urlOf(ref, "blobs")).toBe(c.blobURL);
    }
  });
});

function pick(ref: Reference, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (ref as unknown as Record<string, unknown>)[k]]));
}
