/**
 * Blobs stream through `OCIRegistry` on the real registry, in both directions, proven on the wire:
 * an upload's first bytes reach the registry while the body has not produced its second half yet,
 * and a download hands out its first bytes while the registry is still holding the rest back.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OCIRegistry } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { startTestRegistry } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
let registry: TestRegistry;
let proxy: RegistryProxy;
let digest = "";

/** `size` bytes of a pattern, 1 MiB at a time; before the second half it awaits `gate`. */
async function* generated(size: number, gate?: () => Promise<void>): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < size; at += MiB) {
    if (at === size / 2) await gate?.();
    yield Buffer.alloc(Math.min(MiB, size - at), (at / MiB) & 0xff);
  }
}

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startRegistryProxy(registry.host);
  const hash = createHash("sha256");
  for await (const chunk of generated(SIZE)) hash.update(chunk);
  digest = `sha256:${hash.digest("hex")}`;
});
afterAll(async () => {
  await proxy.close();
  await registry.stop();
});
beforeEach(() => proxy.reset());

describe("blob streaming on the wire", () => {
  it("putBlob sends the first half before the body has produced the second", { timeout: 60_000 }, async () => {
    const oci = new OCIRegistry(proxy.host);
    const sentBeforeSecondHalf = async (): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (proxy.uploadedBytes() < SIZE / 4) {
        if (Date.now() > deadline) throw new Error(`only ${proxy.uploadedBytes()} bytes reached the registry: the body is buffered`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await oci.putBlob("vm-big", digest, generated(SIZE, sentBeforeSecondHalf), SIZE);
    expect(await oci.hasBlob("vm-big", digest)).toBe(true);
    expect(proxy.uploadedBytes()).toBe(SIZE);
  });

  it("getBlob hands out bytes while the registry holds the rest back", { timeout: 60_000 }, async () => {
    proxy.fault((method, path) => (method === "GET" && path.includes("/blobs/") ? { kind: "stall-body", afterBytes: 4 * MiB } : undefined));
    const controller = new AbortController();
    const stream = await new OCIRegistry(proxy.host, { timeoutMs: 10_000 }).getBlob("vm-big", digest, { signal: controller.signal });
    let received = 0;
    for await (const chunk of stream) {
      received += (chunk as Buffer).length;
      if (received >= 2 * MiB) break; // the registry has not sent more than 4 MiB of 16
    }
    controller.abort();
    expect(received).toBeGreaterThanOrEqual(2 * MiB);
  });
});
