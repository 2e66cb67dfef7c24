import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { RegistryError } from "../../oci/errors.js";
import type { Downloader } from "../../oci/registry.js";
import { verifiedBlob } from "./blob-reader.js";

const ZEROS_DIGEST = "sha256:df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119"; // 4 zero bytes
/** A downloader that reports `checked(stream, digest)` to the call's `onDigestChecked`, or nothing. */
const downloader = (bytes: Uint8Array, checked?: (stream: Readable, digest: string) => [body: Readable, digest: string]): Downloader => ({
  getManifest: () => Promise.reject(new Error("unused")),
  getBlob: (_name, digest, options) => {
    const stream = Readable.from([bytes]);
    if (checked) options?.onDigestChecked?.(...checked(stream, digest));
    return Promise.resolve(stream);
  },
});
const itself = (stream: Readable, digest: string): [Readable, string] => [stream, digest];

async function read(dl: Downloader): Promise<unknown> {
  const out: Uint8Array[] = [];
  try {
    for await (const c of verifiedBlob(dl, "vm", { mediaType: "x", digest: ZEROS_DIGEST, size: 4 })) out.push(c);
  } catch (err) {
    return err;
  }
  return Buffer.concat(out);
}

describe("verifiedBlob hashes each byte once", () => {
  it("hashes a body its downloader does not check, and refuses wrong bytes", async () => {
    expect(await read(downloader(new Uint8Array(4)))).toEqual(Buffer.alloc(4));
    const err = await read(downloader(Buffer.from("abcd")));
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toMatch(/^blob sha256:df3f61\S+ digest mismatch: got sha256:88d4266f/u);
  });

  it("only length-checks the body this call's downloader reports checked against this digest (OCIRegistry's getBlob hashes it)", async () => {
    expect(await read(downloader(Buffer.from("abcd"), itself))).toEqual(Buffer.from("abcd"));
    const err = await read(downloader(Buffer.from("abc"), itself));
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toBe(`blob ${ZEROS_DIGEST} shorter than manifest size 4 (missing 1)`);
  });
  it.each([
    ["another stream", (_s: Readable, d: string): [Readable, string] => [Readable.from([]), d]],
    ["another digest", (s: Readable): [Readable, string] => [s, `sha256:${"0".repeat(64)}`]],
  ])("hashes a body when the downloader reports %s as checked, and refuses wrong bytes", async (_what, report) => {
    const err = await read(downloader(Buffer.from("abcd"), report));
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toMatch(/^blob sha256:df3f61\S+ digest mismatch: got sha256:88d4266f/u);
  });
});

describe("verifiedBlob tells its own refusals by code, not by text", () => {
  const failing = (err: Error): Downloader => ({
    getManifest: () => Promise.reject(new Error("unused")),
    getBlob: () =>
      Promise.resolve(
        Readable.from(
          (async function* () {
            yield* [];
            throw err;
          })(),
        ),
      ),
  });

  it("a transport failure whose text reads like a refusal stays a transfer failure", async () => {
    const err = await read(failing(new Error(`blob ${ZEROS_DIGEST} shorter than you think: connection reset`)));
    expect(isCocoonError(err, "ERR_SNAPSHOT_TRANSFER")).toBe(true);
    expect((err as Error).message).toBe(`read blob ${ZEROS_DIGEST}: blob ${ZEROS_DIGEST} shorter than you think: connection reset`);
  });

  it("a downloader's own size check, in its own words, is an integrity failure with those words", async () => {
    const err = await read(failing(new RegistryError("ERR_REGISTRY_SIZE_MISMATCH", "get blob vm: 3 bytes of 4")));
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toBe("get blob vm: 3 bytes of 4");
  });
});
