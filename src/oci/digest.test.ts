import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { canonicalDigestProblem, checkUploadDigest, sha256Digest } from "./digest.js";

const hex = "0123456789abcdef".repeat(4);

describe("checkUploadDigest", () => {
  it("returns a valid sha256 digest unchanged", () => expect(checkUploadDigest(`sha256:${hex}`)).toBe(`sha256:${hex}`));

  it.each([
    ["", 'cannot parse hash: ""'],
    [hex, `cannot parse hash: "${hex}"`],
    ["sha256:abc", "wrong number of hex digits for sha256: abc"],
    [`sha256:${hex.toUpperCase()}`, "found non-hex character in hash: A"],
    [`sha256:é${hex}`, "found non-hex character in hash: \u00c3"],
    [`sha512:${hex}${hex}`, 'unsupported hash: "sha512"'],
    ['"q\n:x', "found non-hex character in hash: x"],
    ['"q\n:', 'cannot parse hash: "\\"q\\n:"'],
  ])("refuses %j with go-containerregistry's message", (digest, message) => {
    try {
      checkUploadDigest(digest);
      expect.unreachable();
    } catch (err) {
      expect(isCocoonError(err, "ERR_INVALID_REFERENCE")).toBe(true);
      expect((err as Error).message).toBe(message);
    }
  });
});

describe("canonicalDigestProblem", () => {
  it.each([
    [`sha256:${hex}`, undefined],
    ["sha256:abc", "invalid checksum digest length"],
    [`sha256:${hex.toUpperCase()}`, "invalid checksum digest format"],
    [hex, `unsupported digest algorithm: ${hex}`],
  ])("%j -> %s", (digest, problem) => expect(canonicalDigestProblem(digest)).toBe(problem));
});

describe("sha256Digest", () => {
  it("prefixes the algorithm", () => {
    expect(sha256Digest(Buffer.from("abc"))).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
