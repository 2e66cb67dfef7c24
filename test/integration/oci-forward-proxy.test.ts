/**
 * A registry client in a process whose user told Node to use an HTTP proxy, the two Node ways:
 * undici's `setGlobalDispatcher(new ProxyAgent(...))`, and `NODE_USE_ENV_PROXY=1` with
 * `HTTP_PROXY`. Every request of every method must pass through the proxy the test starts (the
 * package's own download client included), counted there by method.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ProxyAgent, setGlobalDispatcher } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OCIRegistry } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { type ForwardProxy, startForwardProxy } from "./forward-proxy.js";
import { startTestRegistry } from "./registry-helpers.js";
import { callEveryMethod, EVERY_METHOD_REQUESTS } from "./registry-methods.js";

const SLOTS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")];
const BLOB_BYTES = 16 * 1024 * 1024 + 5;
const CHILD = path.join(import.meta.dirname, "registry-methods-child.ts");
let registry: TestRegistry;
let proxy: ForwardProxy;

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(() => registry.stop());
afterEach(() => proxy.close());

describe("OCIRegistry behind a forward proxy configured the Node way", () => {
  // Node 22's own fetch (undici 6) cannot drive this undici 7 ProxyAgent: it refuses a request with a
  // `content-length` header (an upload's POST) before anything is sent, with or without this package.
  it.skipIf(Number(process.versions.undici?.split(".")[0]) < 7)(
    "sends every request through undici's global dispatcher when it is a ProxyAgent",
    async () => {
      proxy = await startForwardProxy();
      const saved = SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
      const agent = new ProxyAgent(proxy.url);
      setGlobalDispatcher(agent);
      try {
        const oci = new OCIRegistry(registry.host, { retries: 0 });
        expect(await callEveryMethod(oci, "vm-proxy-dispatcher")).toBe(BLOB_BYTES);
        expect(proxy.counts()).toEqual(EVERY_METHOD_REQUESTS);
        expect(oci.requestCounts.registry).toBe(8);
      } finally {
        SLOTS.forEach((slot, i) => Reflect.set(globalThis, slot, saved[i]));
        await agent.close();
      }
    },
  );

  it("sends every request through HTTP_PROXY in a process run with NODE_USE_ENV_PROXY=1", async () => {
    proxy = await startForwardProxy();
    // Node proxies loopback too when NO_PROXY is unset; "" keeps a NO_PROXY from the caller's environment out.
    const env = { ...process.env, NODE_USE_ENV_PROXY: "1", HTTP_PROXY: proxy.url, NO_PROXY: "" };
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", CHILD, registry.host, "vm-proxy-env"], {
      env,
      encoding: "utf8",
    });
    expect(JSON.parse(stdout)).toEqual({ read: BLOB_BYTES, requests: 8 });
    expect(proxy.counts()).toEqual(EVERY_METHOD_REQUESTS);
  });
});
