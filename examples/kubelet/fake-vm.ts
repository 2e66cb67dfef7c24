/**
 * The example's stand-in for a hypervisor: a VM is a directory under `<root>/vms/` holding
 * `memory` (its bytes) and `origin` (how it started: a fresh `boot`, the node's `kept` snapshot, or
 * one pulled from the `registry`), so a test can see what a wake restored.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { VMRuntime } from "@cocoonstack/cocoon-common/meta";

/** How a VM started. */
export type VMOrigin = "boot" | "kept" | "registry";

const vmDir = (root: string, vmName: string): string => join(root, "vms", vmName);

/** Starts a VM with `memory` (fresh random bytes when absent). */
export async function startVM(root: string, vmName: string, origin: VMOrigin, memory: Buffer = randomBytes(64 * 1024)): Promise<void> {
  await mkdir(vmDir(root, vmName), { recursive: true });
  await writeFile(join(vmDir(root, vmName), "memory"), memory);
  await writeFile(join(vmDir(root, vmName), "origin"), origin);
}

/** Whether the VM runs on this node. */
export function isVMRunning(root: string, vmName: string): Promise<boolean> {
  return stat(vmDir(root, vmName)).then(
    () => true,
    () => false,
  );
}

/** The VM's memory, as a snapshot captures it. */
export function readVMMemory(root: string, vmName: string): Promise<Buffer> {
  return readFile(join(vmDir(root, vmName), "memory"));
}

/** How the running VM started. */
export async function readVMOrigin(root: string, vmName: string): Promise<string> {
  return readFile(join(vmDir(root, vmName), "origin"), "utf8");
}

/** Stops the VM and removes it. */
export async function removeVM(root: string, vmName: string): Promise<void> {
  await rm(vmDir(root, vmName), { recursive: true, force: true });
}

/** The VM's id and IP as a hypervisor would hand them out: derived from its name, so stable across restarts. */
export function vmRuntime(vmName: string): VMRuntime {
  const hash = createHash("sha256").update(vmName).digest();
  const [a = 0, b = 0] = hash;
  return { vmID: hash.toString("hex").slice(0, 12), ip: `10.88.${String(a)}.${String((b % 250) + 2)}`, vncPort: 0 };
}
