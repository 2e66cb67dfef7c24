/**
 * `startRegistry()` from `./testing`: a real distribution registry per call, cleaned up like the control plane.
 */
import { existsSync } from "node:fs";
import { get } from "node:http";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { ensureRegistryBinary } from "../../src/testing/index.js";
import { startTestRegistry } from "./registry-helpers.js";

/** The registry's process is gone once its `/proc` entry is (stop() awaits the exit, so it is reaped). */
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

describe("startRegistry", () => {
  it.each(["none", "htpasswd", "token"] as const)(
    "starts with auth %s on a loopback port and leaves nothing behind on stop",
    async (auth) => {
      const registry = await startTestRegistry({ auth });
      expect(registry.host).toMatch(/^127\.0\.0\.1:\d+$/);
      const v2 = await fetch(`${registry.url}/v2/`);
      expect(v2.status).toBe(auth === "none" ? 200 : 401);
      expect(registry.credentials === undefined).toBe(auth === "none");
      expect([alive(registry.pid), existsSync(registry.dir)]).toEqual([true, true]);
      await registry.stop();
      await registry.stop(); // idempotent
      expect([alive(registry.pid), existsSync(registry.dir)]).toEqual([false, false]);
    },
  );

  it("answers its own htpasswd credentials with 200", async () => {
    const registry = await startTestRegistry({ auth: "htpasswd" });
    try {
      const { username, password } = registry.credentials ?? { username: "", password: "" };
      const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
      expect((await fetch(`${registry.url}/v2/`, { headers: { authorization } })).status).toBe(200);
    } finally {
      await registry.stop();
    }
  });

  it("serves token auth's realm on the registry's own host and port, naming the host each request came to", async () => {
    const registry = await startTestRegistry({ auth: "token" });
    try {
      const challenge = (url: string, host?: string) =>
        new Promise<string | undefined>((resolve, reject) => {
          const headers = host === undefined ? {} : { host };
          get(url, { headers }, (res) => resolve(res.resume().headers["www-authenticate"])).on("error", reject);
        });
      const service = 'service="cocoon-test-registry"';
      expect(await challenge(`${registry.url}/v2/`)).toBe(`Bearer realm="${registry.url}/token",${service}`);
      expect(await challenge(`${registry.url}/v2/`, "127.0.0.1:1")).toBe(`Bearer realm="http://127.0.0.1:1/token",${service}`);
      const { username, password } = registry.credentials ?? { username: "", password: "" };
      const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
      const token = await fetch(`${registry.url}/token?${service.replaceAll('"', "")}&scope=repository:vm:pull`, {
        headers: { authorization },
      });
      expect([token.status, registry.tokenRequests]).toEqual([200, 1]);
    } finally {
      await registry.stop();
    }
  });

  it("takes TEST_ASSET_REGISTRY first and refuses a path that is not executable", async () => {
    const env = { TEST_ASSET_REGISTRY: "/nonexistent/registry" };
    const err = await ensureRegistryBinary({ env, log: () => undefined }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
    expect((err as Error).message).toBe("/nonexistent/registry (from TEST_ASSET_REGISTRY) is not an executable file");
  });
});
