/**
 * The node-local snapshots: `<root>/snapshots/<vm>.tar`, a snapshot export as the package writes it
 * (`createSnapshotExport`) or pulls it back (`pullSnapshot`). A hibernation writes one and pushes it
 * as `<vm>:hibernate`; a released seat keeps it (keep-snapshot-on-delete) so a wake on this node
 * restores without a pull.
 *
 * @module
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { SnapshotTag } from "@cocoonstack/cocoon-common/meta";
import type { OCIRegistry } from "@cocoonstack/cocoon-common/oci";
import { pullSnapshot, pushSnapshot, readExportFile, restoreSnapshot } from "@cocoonstack/cocoon-common/snapshot";
import { createSnapshotExport } from "@cocoonstack/cocoon-common/snapshot/export";

/** The export file of `vmName` on this node. */
export const localSnapshotPath = (root: string, vmName: string): string => join(root, "snapshots", `${vmName}.tar`);

/** Whether this node holds a snapshot of `vmName`. */
export function hasLocalSnapshot(root: string, vmName: string): Promise<boolean> {
  return stat(localSnapshotPath(root, vmName)).then(
    () => true,
    () => false,
  );
}

/** Snapshots the VM's memory to this node, then pushes it to the registry as `<vm>:hibernate`. */
export async function snapshotAndPush(root: string, registry: OCIRegistry, vmName: string, memory: Buffer): Promise<string> {
  const path = localSnapshotPath(root, vmName);
  await mkdir(join(root, "snapshots"), { recursive: true });
  const config = { id: `${vmName}-hibernate`, name: vmName, hypervisor: "fake", cpu: 1, memory: memory.length };
  await pipeline(Readable.from(createSnapshotExport(config, [{ name: "memory", data: memory }])), createWriteStream(path));
  const pushed = await pushSnapshot(readExportFile(path), registry, { name: vmName, tag: SnapshotTag.Hibernate });
  return pushed.manifestDigest;
}

/** Pulls `<vm>:hibernate` into this node's snapshot file. */
export async function pullToNode(root: string, registry: OCIRegistry, vmName: string): Promise<void> {
  await mkdir(join(root, "snapshots"), { recursive: true });
  await pullSnapshot(registry, `${vmName}:${SnapshotTag.Hibernate}`, createWriteStream(localSnapshotPath(root, vmName)));
}

/** Removes this node's snapshot of `vmName`, if any. */
export async function dropLocalSnapshot(root: string, vmName: string): Promise<void> {
  await rm(localSnapshotPath(root, vmName), { force: true });
}

/**
 * The `memory` file of this node's snapshot of `vmName`: the stand-in for `cocoon snapshot import`.
 * The snapshot is restored into a fresh directory beside it (`restoreSnapshot`), read, and removed.
 */
export async function readSnapshotMemory(root: string, vmName: string): Promise<Buffer> {
  const dir = await mkdtemp(join(root, "snapshots", `${vmName}-restore-`));
  try {
    await restoreSnapshot(createReadStream(localSnapshotPath(root, vmName)), dir);
    return await readFile(join(dir, "memory"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
