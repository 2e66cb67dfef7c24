import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { collector } from "../fakes.test-util.js";
import { CountingRegistry, digestOf, layerJSON, manifestBytes } from "../hostile-artifact.test-util.js";
import { streamSnapshot } from "./pull.js";

const MEMORY = "application/vnd.cocoonstack.vm.memory";
const CONFIG_V1 = '{"schemaVersion":"v1","snapshotId":"s","files":{}}';

async function pull(reg: CountingRegistry, manifest: Uint8Array): Promise<{ error: unknown; bytes: Buffer }> {
  const sink = collector();
  const error = await streamSnapshot(manifest, reg, { name: "vm", output: sink.output, now: () => 0 }).then(
    () => null,
    (e: unknown) => e,
  );
  return { error, bytes: sink.bytes() };
}

function expectFormat(error: unknown, message: string): void {
  expect(isCocoonError(error, "ERR_SNAPSHOT_FORMAT")).toBe(true);
  expect((error as Error).message).toBe(message);
}

describe("pull: layer titles the registry names", () => {
  it.each([
    ["..", 'it is ".."'],
    [".", 'it is "."'],
    ["../../etc/cron.d/x", 'it contains "/"'],
    ["/etc/passwd", "it is an absolute path"],
    ["dir/memory-ranges", 'it contains "/"'],
    ["memory-ranges/", 'it contains "/"'],
    ["..\\..\\boot.ini", "it contains a backslash"],
    ["memory\u0000ranges", "it contains a NUL byte"],
  ])("refuses the title %j (%s) before writing a byte or fetching a layer", async (title, why) => {
    const reg = new CountingRegistry();
    const blob = reg.put("data");
    const manifest = manifestBytes(reg, CONFIG_V1, [layerJSON(MEMORY, blob, 4, title)]);
    const { error, bytes } = await pull(reg, manifest);
    expectFormat(error, `layer ${blob} has org.opencontainers.image.title ${JSON.stringify(title)}, not a single file name: ${why}`);
    expect(bytes.length).toBe(0);
    expect(reg.reads.filter((r) => r.startsWith("blob")).length).toBe(1); // the config only
    expect(reg.reads).not.toContain(`blob ${blob}`);
  });

  it("refuses a v1 title two layers share, naming both layers", async () => {
    const reg = new CountingRegistry();
    const a = reg.put("first");
    const b = reg.put("second!");
    const manifest = manifestBytes(reg, CONFIG_V1, [layerJSON(MEMORY, a, 5, "memory-ranges"), layerJSON(MEMORY, b, 7, "memory-ranges")]);
    const { error, bytes } = await pull(reg, manifest);
    expectFormat(error, `layer ${b} has org.opencontainers.image.title "memory-ranges", the title of layer ${a} too`);
    expect(bytes.length).toBe(0);
  });

  it("refuses a v2 title two unchunked layers share", async () => {
    const reg = new CountingRegistry();
    const a = reg.put("first");
    const b = reg.put("second!");
    const config = '{"schemaVersion":"v2","files":{"state.json":{"size":5}}}';
    const manifest = manifestBytes(
      reg,
      config,
      [layerJSON("application/vnd.cocoonstack.vm.state+json", a, 5, "state.json"), layerJSON(MEMORY, b, 7, "state.json")],
      true,
    );
    const { error, bytes } = await pull(reg, manifest);
    expectFormat(error, `layer ${b} has org.opencontainers.image.title "state.json", the title of layer ${a} too`);
    expect(bytes.length).toBe(0);
  });

  it("refuses a layer titled snapshot.json, which would shadow the import's envelope", async () => {
    const reg = new CountingRegistry();
    const blob = reg.put('{"version":1,"config":{"name":"other-vm"}}');
    const manifest = manifestBytes(reg, CONFIG_V1, [layerJSON(MEMORY, blob, 43, "snapshot.json")]);
    const { error, bytes } = await pull(reg, manifest);
    expectFormat(error, `layer ${blob} has org.opencontainers.image.title "snapshot.json", the name of the import's envelope`);
    expect(bytes.length).toBe(0);
  });
});

describe("pull: an image index whose child is malformed", () => {
  it("reports the child's parse error, as Go's Stream does", async () => {
    const reg = new CountingRegistry();
    const child = Buffer.from('{"schemaVersion":2,"layers":[');
    await reg.putManifest("vm", "child", child, "application/vnd.oci.image.manifest.v1+json");
    const childDigest = digestOf(child);
    const index = Buffer.from(
      `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[` +
        `{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"${childDigest}","size":${child.length},` +
        `"platform":{"os":"linux","architecture":"amd64"}}]}`,
    );
    const { error, bytes } = await pull(reg, index);
    expectFormat(error, "parse child manifest: parse oci manifest: unexpected end of JSON input");
    expect(bytes.length).toBe(0);
    expect(reg.reads).toEqual([`manifest ${childDigest}`]);
  });
});
