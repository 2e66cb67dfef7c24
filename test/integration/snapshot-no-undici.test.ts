/**
 * A v1 push and pull through a registry made without `fetch` never load Node's undici (its whole
 * bundle: about 16 MiB of RSS), checked in a child process where nothing else loads it.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRegistry, type TestRegistry } from "../../src/testing/registry/start-registry.js";

const CHILD = path.join(import.meta.dirname, "snapshot-no-undici-child.ts");
let registry: TestRegistry;
beforeAll(async () => {
  registry = await startRegistry();
}, 120_000);
afterAll(async () => {
  await registry?.stop();
});

it("a v1 push and pull never load Node's undici", async () => {
  const env = { ...process.env, NODE_USE_ENV_PROXY: "", NODE_OPTIONS: "" };
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", CHILD, registry.host], { env, encoding: "utf8" });
  expect(JSON.parse(stdout)).toEqual({ atStart: false, afterPull: false, afterHeaders: true, same: true, bytes: true });
}, 60_000);
