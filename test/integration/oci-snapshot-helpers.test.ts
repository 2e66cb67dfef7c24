/**
 * The operator's two registry questions, on the real registry: is `<vm>:hibernate` there (failing
 * closed), and the snapshot cleanup of a deleted CocoonSet under its snapshot policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, SnapshotTag } from "../../src/meta/index.js";
import { deleteSetSnapshots, hasHibernateSnapshot, OCIRegistry } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { chunked, manifestFor, OCI_MANIFEST, rejectionOf, startTestRegistry, testBlob } from "./registry-helpers.js";

let registry: TestRegistry;
let oci: OCIRegistry;
const blob = testBlob(64, 8);
const vms = [
  { vmName: "vk-ns-set-0", role: Role.Main },
  { vmName: "vk-ns-set-1", role: Role.SubAgent },
  { vmName: "vk-ns-set-tools", role: Role.Toolbox },
];

async function pushBoth(): Promise<void> {
  for (const { vmName } of vms) {
    await oci.putBlob(vmName, blob.digest, chunked(blob.bytes), blob.bytes.length);
    for (const tag of [SnapshotTag.Hibernate, SnapshotTag.Default]) await oci.putManifest(vmName, tag, manifestFor(blob), OCI_MANIFEST);
  }
}

async function remaining(): Promise<string[]> {
  const found: string[] = [];
  for (const { vmName } of vms) {
    for (const tag of [SnapshotTag.Hibernate, SnapshotTag.Default]) if (await oci.hasManifest(vmName, tag)) found.push(`${vmName}:${tag}`);
  }
  return found;
}

beforeAll(async () => {
  registry = await startTestRegistry();
  oci = new OCIRegistry(registry.host);
});
afterAll(() => registry.stop());

describe("hasHibernateSnapshot", () => {
  it("is false before the push and true after", async () => {
    expect(await hasHibernateSnapshot(oci, "vk-ns-set-0")).toBe(false);
    await pushBoth();
    expect(await hasHibernateSnapshot(oci, "vk-ns-set-0")).toBe(true);
  });

  it("fails closed on a name the registry cannot hold: a typed error, not false", async () => {
    const err = await rejectionOf(hasHibernateSnapshot(oci, "VK-Upper"));
    expect([err.code, err.message]).toEqual([
      "ERR_INVALID_REFERENCE",
      `probe hibernate snapshot VK-Upper: parse ref VK-Upper:hibernate: could not parse reference: ${registry.host}/VK-Upper:hibernate`,
    ]);
  });
});

describe("deleteSetSnapshots", () => {
  it.each([
    ["always", [], ["vk-ns-set-0:latest", "vk-ns-set-1:latest", "vk-ns-set-tools:latest"]],
    [undefined, [], ["vk-ns-set-0:latest", "vk-ns-set-1:latest", "vk-ns-set-tools:latest"]],
    ["main-only", ["vk-ns-set-1:latest", "vk-ns-set-tools:latest"], ["vk-ns-set-0:latest"]],
    ["never", ["vk-ns-set-0:latest", "vk-ns-set-1:latest", "vk-ns-set-tools:latest"], []],
  ])("policy %s deletes every :hibernate and the :latest of %j", async (policy, latestDeleted, left) => {
    await pushBoth();
    const result = await deleteSetSnapshots(oci, vms, policy);
    expect(result.deleted).toEqual([...vms.map((v) => `${v.vmName}:hibernate`), ...latestDeleted].sort((a, b) => order(a) - order(b)));
    expect(result.kept).toEqual(left);
    expect(await remaining()).toEqual(left);
    expect(await deleteSetSnapshots(oci, vms, policy)).toEqual(result); // absent tags count as deleted
  });
});

const order = (ref: string): number => vms.findIndex((v) => ref.startsWith(`${v.vmName}:`)) * 2 + (ref.endsWith(":latest") ? 1 : 0);
