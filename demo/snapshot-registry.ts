/**
 * The registry side of the demo: the agent pushes the `:hibernate` snapshot to a real registry,
 * and the operator asks the registry the two questions it gates on (is it there? then release /
 * restore), counting the requests each probe costs on the wire.
 *
 * @module
 */
import { SnapshotTag } from "../src/index.js";
import { hasHibernateSnapshot, sha256Digest, type OCIRegistry } from "../src/oci/index.js";

/** The artifact types of a cocoon snapshot (owned by `./snapshot`; spelled out for the demo's tiny artifact). */
const ARTIFACT_TYPE = "application/vnd.cocoonstack.snapshot.v1+json";
const CONFIG_TYPE = "application/vnd.cocoonstack.snapshot.config.v1+json";
const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

/** What the agent pushed. */
export interface PushedSnapshot {
  readonly manifestDigest: string;
  readonly bytes: number;
}

/** The agent's push of a small `:hibernate` artifact: a config blob, one memory layer, the manifest. */
export async function pushHibernateSnapshot(registry: OCIRegistry, vmName: string): Promise<PushedSnapshot> {
  const config = Buffer.from(JSON.stringify({ snapshotId: `${vmName}-hibernate`, hypervisor: "cloud-hypervisor" }));
  const memory = Buffer.alloc(256 * 1024, 0x5a);
  const blobs = [config, memory].map((bytes) => ({ bytes, digest: sha256Digest(bytes) }));
  for (const { bytes, digest } of blobs) {
    if (!(await registry.hasBlob(vmName, digest))) await registry.putBlob(vmName, digest, streamOf(bytes), bytes.length);
  }
  const [cfg, layer] = blobs as [(typeof blobs)[0], (typeof blobs)[0]];
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      artifactType: ARTIFACT_TYPE,
      config: { mediaType: CONFIG_TYPE, digest: cfg.digest, size: cfg.bytes.length },
      layers: [
        {
          mediaType: "application/octet-stream",
          digest: layer.digest,
          size: layer.bytes.length,
          annotations: { "org.opencontainers.image.title": "memory-ranges" },
        },
      ],
    }),
  );
  await registry.putManifest(vmName, SnapshotTag.Hibernate, manifest, OCI_MANIFEST);
  return { manifestDigest: sha256Digest(manifest), bytes: manifest.length + config.length + memory.length };
}

async function* streamOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
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
  const present = await hasHibernateSnapshot(registry, vmName).catch((err: unknown) => err as Error);
  const after = registry.requestCounts;
  return { present, requests: after.registry - before.registry, tokenRequests: after.token - before.token };
}

/** `present (1 HEAD, 0 token requests)`, for the console. */
export function describeProbe(p: Probe): string {
  const answer = p.present instanceof Error ? `error ${(p.present as { code?: string }).code ?? ""}` : p.present ? "present" : "absent";
  return `${answer} (${p.requests} registry request${p.requests === 1 ? "" : "s"}, ${p.tokenRequests} token request${p.tokenRequests === 1 ? "" : "s"})`;
}
