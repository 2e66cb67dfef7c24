/**
 * What a v1 push and a v1 pull load of Node, each in a fresh process running the built package
 * (`dist`, as published) against a plain-HTTP registry: never Node's undici (its whole bundle),
 * `node:tls`, `node:child_process` or `node:zlib`; a pull not even web streams. Each costs
 * resident memory the v1 memory goal (issue 37) has no room for.
 */
import { execFile } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSnapshotExport } from "../../src/snapshot/export/create-snapshot-export.js";
import { memoryLike, vmConfig } from "../../src/snapshot/snapshot-files.test-util.js";
import { startRegistry, type TestRegistry } from "../../src/testing/registry/start-registry.js";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const BUILTINS = {
  undici: "internal/deps/undici/undici",
  tls: "tls",
  childProcess: "child_process",
  zlib: "zlib",
  webStreams: "internal/webstreams/readablestream",
} as const;
type Loaded = Record<keyof typeof BUILTINS, boolean>;

/**
 * A fresh `node` (no loader, so nothing but the package loads a builtin) that pushes `tar` or pulls
 * it back with the built package, and prints which of {@link BUILTINS} were loaded after; then,
 * as the proof that the check sees them, after loading each itself.
 */
const CHILD = `
const [op, host, tar] = process.argv.slice(1);
const { OCIRegistry } = await import(${JSON.stringify(`${dist}oci/index.js`)});
const { pullSnapshot, pushSnapshot, readExportFile } = await import(${JSON.stringify(`${dist}snapshot/index.js`)});
const { Writable } = await import("node:stream");
const names = ${JSON.stringify(BUILTINS)};
const loaded = () => Object.fromEntries(Object.entries(names).map(([k, v]) => [k, process.moduleLoadList.includes("NativeModule " + v)]));
const registry = new OCIRegistry(host, { retries: 0 });
let bytes = 0;
if (op === "push") await pushSnapshot(readExportFile(tar), registry, { name: "vm-builtins", tag: "hibernate" });
else await pullSnapshot(registry, "vm-builtins:hibernate", new Writable({ write(c, _e, cb) { bytes += c.length; cb(); } }));
const after = loaded();
new Headers({ a: "b" });
for (const m of ["node:tls", "node:child_process", "node:zlib"]) process.getBuiltinModule(m);
new ReadableStream();
process.stdout.write(JSON.stringify({ after, proof: loaded(), bytes }));
`;

async function run(op: "push" | "pull", host: string, tar: string): Promise<{ after: Loaded; proof: Loaded; bytes: number }> {
  const env = { ...process.env, NODE_USE_ENV_PROXY: "", NODE_OPTIONS: "" };
  const args = ["--input-type=module", "-e", CHILD, op, host, tar];
  const { stdout } = await promisify(execFile)(process.execPath, args, { env, encoding: "utf8" });
  return JSON.parse(stdout) as { after: Loaded; proof: Loaded; bytes: number };
}

const all = (value: boolean): Loaded => ({ undici: value, tls: value, childProcess: value, zlib: value, webStreams: value });

describe.skipIf(!existsSync(`${dist}snapshot/index.js`))("the builtins a v1 push and pull load (built dist)", () => {
  let registry: TestRegistry;
  let dir: string;
  let tar: string;
  beforeAll(async () => {
    registry = await startRegistry();
    dir = mkdtempSync(path.join(tmpdir(), "cocoon-builtins-"));
    tar = path.join(dir, "export.tar");
    const memory = { name: "memory-ranges", data: memoryLike(3 << 20, "mem") };
    await pipeline(Readable.from(createSnapshotExport(vmConfig("vm-builtins"), [memory])), createWriteStream(tar));
  }, 120_000);
  afterAll(async () => {
    await registry?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("a push loads web streams (its PATCH bodies are streams) and none of the others", async () => {
    const { after, proof } = await run("push", registry.host, tar);
    expect(after).toEqual({ ...all(false), webStreams: true });
    expect(proof).toEqual(all(true));
  }, 60_000);

  it("a pull, in a process of its own, loads none of them", async () => {
    const { after, proof, bytes } = await run("pull", registry.host, tar);
    expect(after).toEqual(all(false));
    expect(proof).toEqual(all(true));
    expect(bytes).toBeGreaterThan(3 << 20);
  }, 60_000);
});
