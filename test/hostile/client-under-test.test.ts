import { afterAll, beforeAll, expect, it } from "vitest";
import { hostileRegistry } from "./support/hostile-client.js";
import { serveManifest, startWorld, type HostileWorld } from "./support/world.js";

// The hostile suite runs twice: with Node's fetch (project unit) and with the package's own HTTP/1.1
// client (project hostile-socket). This pins which one a run speaks through.
let world: HostileWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

it("speaks through the client its project names", async () => {
  world.registry.handle((_req, res) => serveManifest(res));
  expect(await hostileRegistry(world.registry.host, world.fetch).hasManifest("vm", "hibernate")).toBe(true);
  const socket = process.env["COCOON_HOSTILE_FETCH"] === "socket";
  // undici names itself; the package's client sends no User-Agent.
  expect(world.registry.seen.map((r) => [r.method, r.headers["user-agent"]])).toEqual([["HEAD", socket ? undefined : "undici"]]);
});
