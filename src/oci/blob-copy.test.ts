import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { copyBlobExact, copyBlobSized, verifyBlob } from "./blob-copy.js";
import { sha256Digest, sha256Hex } from "./digest.js";
import { isRegistryError } from "./errors.js";
import { readGoJSON } from "../internal/go-vectors.test-util.js";

interface BlobCase {
  input: { id: string; body: string; digest: string; size: number; bodyThenError?: string; bodyErrorAfterBytes?: number };
  copyBlobExact: { error: string | null; written: number };
  copyBlobSized: { error: string | null; written: number };
}
interface Sha256Case {
  input: { text?: string; hex?: string; repeat?: { byte: number; count: number } };
  sha256Hex: string;
}
const go = readGoJSON<{ blobReaders: BlobCase[]; sha256Hex: Sha256Case[] }>("registry/ociutil.json");

async function* bodyOf(input: BlobCase["input"]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(input.body);
  const cut = input.bodyErrorAfterBytes ?? bytes.length;
  if (cut > 0) yield bytes.subarray(0, cut);
  if (input.bodyThenError !== undefined) throw new Error(input.bodyThenError);
}

function sink(): { dst: Writable; written: () => number } {
  let written = 0;
  const dst = new Writable({
    write(chunk: Buffer, _enc, done) {
      written += chunk.length;
      done();
    },
  });
  return { dst, written: () => written };
}

async function run(copy: typeof copyBlobExact, input: BlobCase["input"]): Promise<{ error: string | null; written: number }> {
  const { dst, written } = sink();
  try {
    await copy(dst, bodyOf(input), input.digest, input.size);
    return { error: null, written: written() };
  } catch (err) {
    return { error: (err as Error).message, written: written() };
  }
}

const chunks = (...parts: string[]): AsyncIterable<Uint8Array> =>
  (async function* () {
    for (const p of parts) yield Buffer.from(p);
  })();

describe("verifyBlob", () => {
  const body = "blob body bytes";
  const digest = sha256Digest(Buffer.from(body));

  it("passes a body split in odd chunks through unchanged", async () => {
    const out: Uint8Array[] = [];
    for await (const c of verifyBlob(chunks("bl", "", "ob body ", "bytes"), digest, 15)) out.push(c);
    expect(Buffer.concat(out).toString()).toBe(body);
  });

  it.each([
    ["short", chunks("blob"), 15, "ERR_REGISTRY_SIZE_MISMATCH", `blob ${digest} shorter than manifest size 15 (missing 11)`],
    ["long", chunks("blob body bytes", "!"), 15, "ERR_REGISTRY_SIZE_MISMATCH", `blob ${digest} longer than manifest size 15`],
    [
      "wrong bytes",
      chunks("blob body byteZ"),
      15,
      "ERR_REGISTRY_DIGEST_MISMATCH",
      `blob ${digest} digest mismatch: got ${sha256Digest(Buffer.from("blob body byteZ"))}`,
    ],
  ] as const)("fails a %s body with a typed error", async (_name, input, size, code, message) => {
    const consume = async (): Promise<void> => {
      for await (const _ of verifyBlob(input, digest, size)) {
        // drain
      }
    };
    const err: unknown = await consume().catch((e: unknown) => e);
    expect(isRegistryError(err, code)).toBe(true);
    expect((err as Error).message).toBe(message);
  });

  it("never hands out a byte past the size", async () => {
    const out: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const c of verifyBlob(chunks("blob body bytes and more"), digest, 15)) out.push(c);
      })(),
    ).rejects.toThrow("longer than manifest size 15");
    expect(Buffer.concat(out).toString()).toBe(body);
  });

  it("closes the body when the consumer stops early", async () => {
    let closed = false;
    const source = (async function* () {
      try {
        yield Buffer.from("blob ");
        yield Buffer.from("body bytes");
      } finally {
        closed = true;
      }
    })();
    for await (const _ of verifyBlob(source, digest, 15)) break;
    expect(closed).toBe(true);
  });
});

describe("sha256Hex", () => {
  it("hashes the empty input", () => {
    expect(sha256Hex(new Uint8Array())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("ociutil blob copies and SHA256Hex: Go's answers (ociutil.json)", () => {
  it("has Go's 14 blob-reader cases and 6 SHA256Hex inputs", () => {
    expect([go.blobReaders.length, go.sha256Hex.length]).toEqual([14, 6]);
  });

  it.each(go.blobReaders.map((c) => [c.input.id, c] as const))("%s", async (_id, c) => {
    expect({ exact: await run(copyBlobExact, c.input), sized: await run(copyBlobSized, c.input) }).toEqual({
      exact: c.copyBlobExact,
      sized: c.copyBlobSized,
    });
  });

  it("SHA256Hex matches on every input", () => {
    for (const c of go.sha256Hex) {
      const { text, hex, repeat } = c.input;
      const data =
        text !== undefined
          ? Buffer.from(text)
          : hex !== undefined
            ? Buffer.from(hex, "hex")
            : Buffer.alloc(repeat?.count ?? 0, repeat?.byte ?? 0);
      expect(sha256Hex(data)).toBe(c.sha256Hex);
    }
  });
});
