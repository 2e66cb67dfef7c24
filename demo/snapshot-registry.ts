/**
 * The registry side of the demo: the virtual kubelet writes a snapshot export and pushes it as `:hibernate` to a real registry,
 * and the operator asks the registry the two questions it gates on (is it there? then release /
 * restore), counting the requests each probe costs on the wire.
 *
 * @module
 */
import { SnapshotTag, isCocoonError } from "../src/index.js";
import { hasHibernateSnapshot, type OCIRegistry } from "../src/oci/index.js";
import { createSnapshotExport } from "../src/snapshot/export/index.js";
import { pushSnapshot } from "../src/snapshot/index.js";

/** What the virtual kubelet pushed. */
export interface PushedSnapshot {
  readonly manifestDigest: string;
  readonly bytes: number;
}

/**
 * The virtual kubelet's push of a small `:hibernate` snapshot: the export `cocoon snapshot export` would
 * write for a VM with 256 KiB of memory in a 1 GiB sparse file, written by `createSnapshotExport`
 * and pushed by `pushSnapshot` (a config blob, one memory layer, the manifest).
 */
export async function pushHibernateSnapshot(registry: OCIRegistry, vmName: string): Promise<PushedSnapshot> {
  const memory = Buffer.alloc(256 * 1024, 0x5a);
  const exported = createSnapshotExport(
    { id: `${vmName}-hibernate`, name: vmName, hypervisor: "cloud-hypervisor", cpu: 2, memory: 1 << 30 },
    [{ name: "memory-ranges", data: memory, mode: 0o100600, sparse: { size: 1 << 30, extents: [{ offset: 0, length: memory.length }] } }],
  );
  const pushed = await pushSnapshot(exported, registry, { name: vmName, tag: SnapshotTag.Hibernate });
  return { manifestDigest: pushed.manifestDigest, bytes: pushed.manifestBytes.length + pushed.totalSize };
}

/** The answer of one probe and what it cost on the wire. */
export interface Probe {
  /** `true`/`false`, or the error that failed the probe closed. */
  readonly present: boolean | Error;
  /** Requests to the registry, and to its token endpoint, during the probe. */
  readonly requests: number;
  readonly tokenRequests: number;
}

/** The operator's `hasHibernateSnapshot`, with its request counts. */
export async function probe(registry: OCIRegistry, vmName: string): Promise<Probe> {
  const before = registry.requestCounts;
  const present = await hasHibernateSnapshot(registry, vmName).catch((err: unknown) =>
    err instanceof Error ? err : new Error(String(err)),
  );
  const after = registry.requestCounts;
  return { present, requests: after.registry - before.registry, tokenRequests: after.token - before.token };
}

/** `present (1 HEAD, 0 token requests)`, for the console. */
export function describeProbe(p: Probe): string {
  const answer = p.present instanceof Error ? `error ${isCocoonError(p.present) ? p.present.code : ""}` : p.present ? "present" : "absent";
  return `${answer} (${p.requests} registry request${p.requests === 1 ? "" : "s"}, ${p.tokenRequests} token request${p.tokenRequests === 1 ? "" : "s"})`;
}
