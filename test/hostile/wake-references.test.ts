import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { pullSnapshot, pushSnapshot, streamCloudImage, streamSnapshot } from "../../src/snapshot/index.js";
import { exportOf } from "../../src/snapshot/snapshot-files.test-util.js";
import { hostileRegistry } from "./support/hostile-client.js";
import { outcome } from "./support/wake.js";
import { MANIFEST, MANIFEST_DIGEST, serveManifest, startWorld, type HostileWorld } from "./support/world.js";

// Rule 1, registry half: a reference or a repository name that a URL would resolve elsewhere
// (a `.` or `..` path component) is refused by the one reference parser, before any request.
let world: HostileWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());
beforeEach(() => {
  world.registry.seen.length = 0;
  world.registry.handle((_req, res) => serveManifest(res));
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await outcome(promise);
  if (!isCocoonError(err, "ERR_INVALID_REFERENCE")) throw new Error(`expected ERR_INVALID_REFERENCE, got ${String(err)}`, { cause: err });
  return err.message;
}

describe("pullSnapshot refuses a reference that climbs out of its repository", () => {
  it.each([
    ["../x:t", 'snapshot pull: reference "../x:t": repository can not contain a "." or ".." path component: ../x'],
    [
      "vm-a/../../etc:t",
      'snapshot pull: reference "vm-a/../../etc:t": repository can not contain a "." or ".." path component: vm-a/../../etc',
    ],
    ["./vm:t", 'snapshot pull: reference "./vm:t": repository can not contain a "." or ".." path component: ./vm'],
    ["vm/..", 'snapshot pull: reference "vm/..": repository can not contain a "." or ".." path component: vm/..'],
    [
      `vm-a/..@${MANIFEST_DIGEST}`,
      `snapshot pull: reference "vm-a/..@${MANIFEST_DIGEST}": repository can not contain a "." or ".." path component: vm-a/..`,
    ],
  ])("%s: ERR_INVALID_REFERENCE, no request", async (reference, message) => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const out = new PassThrough();
    expect(await refusal(pullSnapshot(registry, reference, out))).toBe(message);
    expect(world.registry.seen).toEqual([]);
  });

  it("the same registry still serves a plain reference (one GET for the manifest)", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const err = await outcome(pullSnapshot(registry, "vm-a:t", new PassThrough()));
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true); // the world's manifest is no snapshot
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v2/vm-a/manifests/t"]);
  });
});

describe("the other snapshot calls and the registry client refuse such a name before any request", () => {
  const name = "vm-a/../../etc";
  const why = 'repository can not contain a "." or ".." path component';

  it("streamSnapshot", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const message = await refusal(streamSnapshot(MANIFEST, registry, { name, output: new PassThrough() }));
    expect(message).toBe(`snapshot stream: name "${name}": ${why}: ${name}`);
    expect(world.registry.seen).toEqual([]);
  });

  it("streamCloudImage", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const message = await refusal(streamCloudImage(MANIFEST, registry, { name, output: new PassThrough() }));
    expect(message).toBe(`cloud image stream: name "${name}": ${why}: ${name}`);
    expect(world.registry.seen).toEqual([]);
  });

  it("pushSnapshot", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const files = [{ name: "config.json", data: Buffer.from("{}") }];
    const message = await refusal(pushSnapshot(exportOf("vm", files), registry, { name, tag: "hibernate" }));
    expect(message).toBe(`snapshot push: reference "${name}:hibernate": ${why}: ${name}`);
    expect(world.registry.seen).toEqual([]);
  });

  it("OCIRegistry's own calls", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const host = world.registry.host;
    expect(await refusal(registry.getManifest("..", "t"))).toBe(`parse ref ..:t: could not parse reference: ${host}/..:t`);
    expect(await refusal(registry.getBlob(name, MANIFEST_DIGEST))).toBe(`parse digest ${name}@${MANIFEST_DIGEST}: ${why}: ${name}`);
    expect(world.registry.seen).toEqual([]);
  });
});
