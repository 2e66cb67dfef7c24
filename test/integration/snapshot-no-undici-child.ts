// Run by snapshot-no-undici.test.ts in a child process, so that nothing else loaded Node's undici:
// `node --import tsx snapshot-no-undici-child.ts <registry host>`. Pushes and pulls a v1 snapshot
// with a registry made without `fetch`, then prints whether Node's undici was loaded, before and
// after this child builds a `Headers` itself (the after proves the check sees it).
import { OCIRegistry } from "../../src/oci/index.js";
import { pullSnapshot, pushSnapshot } from "../../src/snapshot/index.js";
import { collector } from "../../src/snapshot/fakes.test-util.js";
import { exportOf, memoryLike } from "../../src/snapshot/snapshot-files.test-util.js";

const UNDICI = "NativeModule internal/deps/undici/undici";
// Node's list of the builtins it loaded; not in @types/node.
const loaded = (): boolean => (process as unknown as { moduleLoadList: string[] }).moduleLoadList.includes(UNDICI);
const [host = ""] = process.argv.slice(2);
const atStart = loaded();
const registry = new OCIRegistry(host, { retries: 0 });
const files = [
  { name: "config.json", data: Buffer.from('{"cpus":2}') },
  { name: "memory-ranges", data: memoryLike(3 << 20, "mem") },
];
const pushed = await pushSnapshot(exportOf("vm-1", files), registry, { name: "vm-no-undici", tag: "hibernate" });
const sink = collector();
const pulled = await pullSnapshot(registry, "vm-no-undici:hibernate", sink.output);
const afterPull = loaded();
new Headers({ a: "b" });
const result = {
  atStart,
  afterPull,
  afterHeaders: loaded(),
  same: pulled.manifestDigest === pushed.manifestDigest,
  bytes: sink.bytes().length > 3 << 20,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
