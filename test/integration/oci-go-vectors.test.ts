/**
 * Go's not-found mapping (`oci.json` `notFound`), replayed on the wire: the real registry behind a
 * proxy that answers the probe with each status Go was asked about. Only a 404 is "absent"; every
 * other status is an error with Go's exact message. The vectors are in test/fixtures/go/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGoJSON } from "../../src/internal/go-vectors.test-util.js";
import { OCIRegistry } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { startTestRegistry } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

interface NotFoundCase {
  error: string;
  ignoreNotFound: string | null;
  isNotFound: boolean;
}
const cases = readGoJSON<{ notFound: { cases: NotFoundCase[] } }>("registry/oci.json").notFound.cases;
// 2xx and 3xx answers are HTTP successes and redirects here, not errors: Go's cases for them are synthetic.
const statusCases = cases.flatMap((c) => {
  const status = Number(/StatusCode: (\d+)/.exec(c.error)?.[1] ?? NaN);
  return status >= 400 ? [{ status, expected: c.ignoreNotFound }] : [];
});

describe("Go's not-found mapping on the wire (oci.json)", () => {
  let registry: TestRegistry;
  let proxy: RegistryProxy;
  beforeAll(async () => {
    registry = await startTestRegistry();
    proxy = await startRegistryProxy(registry.host);
  });
  afterAll(async () => {
    await proxy.close();
    await registry.stop();
  });

  it("replays Go's 10 error statuses of its 14 cases", () => {
    expect([cases.length, statusCases.length]).toEqual([14, 10]);
  });

  it.each(statusCases)("HEAD answered $status: Go says $expected", async ({ status, expected }) => {
    proxy.fault((method) => (method === "HEAD" ? { kind: "status", status } : undefined));
    const answer = await new OCIRegistry(proxy.host, { retries: 0 }).hasManifest("vm-1", "hibernate").then(
      (present) => ({ present, error: null }),
      (err: unknown) => ({ present: null, error: (err as Error).message }),
    );
    expect(answer).toEqual(expected === null ? { present: false, error: null } : { present: null, error: expected });
  });

  it("a refused connection keeps Go's prefix (the socket's own words follow)", async () => {
    const stopped = await startTestRegistry();
    await stopped.stop();
    const err = await new OCIRegistry(stopped.host, { retries: 0 }).deleteManifest("vm-1", "hibernate").catch((e: unknown) => e);
    const go = cases.find((c) => c.error.includes("connection refused"))?.ignoreNotFound ?? "";
    expect((err as Error).message.startsWith(go.slice(0, go.indexOf(": ") + 2))).toBe(true);
  });
});
