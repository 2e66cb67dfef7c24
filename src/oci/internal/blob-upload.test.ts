import { describe, expect, it } from "vitest";
import { isRegistryError } from "../errors.js";
import { uploadBlob } from "./blob-upload.js";

const WRONG = `sha256:${"0".repeat(64)}`;

/** A send that answers the POST with a location and drains the PUT's body, recording the methods. */
function fakeSend(methods: string[]) {
  return async (_ref: unknown, req: { method: string; body?: Uint8Array | AsyncIterable<Uint8Array> }): Promise<Response> => {
    methods.push(req.method);
    if (req.body !== undefined && !(req.body instanceof Uint8Array))
      for await (const _ of req.body) {
        // drained
      }
    return new Response(null, { status: req.method === "POST" ? 202 : 201, headers: { location: "/v2/vm/blobs/uploads/1" } });
  };
}

async function* bytes(): AsyncGenerator<Uint8Array> {
  await Promise.resolve();
  yield Buffer.from("blob");
}

describe("uploadBlob", () => {
  const blobURL = (_ref: unknown, path: string): string => `http://registry.test/v2/vm/blobs/${path}`;

  it("fails a body whose digest differs before the registry sees the end of it", async () => {
    const methods: string[] = [];
    const err = await uploadBlob(
      { base: "registry.test", name: "vm", digest: WRONG, body: bytes(), size: 4 },
      fakeSend(methods),
      blobURL,
    ).catch((e: unknown) => e);
    expect(isRegistryError(err) && err.code).toBe("ERR_REGISTRY_DIGEST_MISMATCH");
  });

  it("leaves the digest of a body its caller hashed for this call to the registry, still checking its length", async () => {
    const methods: string[] = [];
    await uploadBlob(
      { base: "registry.test", name: "vm", digest: WRONG, body: bytes(), size: 4, digestChecked: true },
      fakeSend(methods),
      blobURL,
    );
    expect(methods).toEqual(["POST", "PUT"]);
    const err = await uploadBlob(
      { base: "registry.test", name: "vm", digest: WRONG, body: bytes(), size: 5, digestChecked: true },
      fakeSend([]),
      blobURL,
    ).catch((e: unknown) => e);
    expect(isRegistryError(err) && err.code).toBe("ERR_REGISTRY_SIZE_MISMATCH");
  });
});
