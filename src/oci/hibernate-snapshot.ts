import { CocoonError, isCocoonError } from "../errors.js";
import { SnapshotTag } from "../meta/keys.js";
import { shouldSnapshotVM } from "../meta/snapshot-policy.js";
import { RegistryError, isRegistryError } from "./errors.js";
import type { Registry, RegistryCallOptions } from "./registry.js";
import { messageOf } from "../internal/message-of.js";

/**
 * Reports whether `<vmName>:hibernate` is in the registry: the wake's restore-or-fresh-boot
 * question and the seat release's "is the snapshot verified" question (Go operator's
 * `snapshot.HasHibernateSnapshot`). One `HEAD` once a token is cached.
 *
 * Fails closed: only a 404 is "absent"; any other failure rejects (code kept, message prefixed
 * `probe hibernate snapshot <vm>: `), so a caller never releases a seat or fresh-boots on a guess.
 * An abort rejects with the signal's reason.
 *
 * @example
 * ```ts
 * if (await hasHibernateSnapshot(registry, vmName)) markRestoreFromHibernate(pod); // marks it in place
 * ```
 */
export async function hasHibernateSnapshot(
  registry: Pick<Registry, "hasManifest">,
  vmName: string,
  options: RegistryCallOptions = {},
): Promise<boolean> {
  try {
    return await registry.hasManifest(vmName, SnapshotTag.Hibernate, options);
  } catch (err) {
    if (options.signal?.aborted === true && err === options.signal.reason) throw err;
    throw rewrap(`probe hibernate snapshot ${vmName}`, err);
  }
}

/** One VM of a deleted CocoonSet: its name and role (`main`, `sub-agent`, `toolbox`). */
export interface SetVM {
  /** The VM name, which is also its repository. */
  readonly vmName: string;
  /** Its role, as `roleForPod` reads it. */
  readonly role: string;
}

/** What {@link deleteSetSnapshots} did, as `vm:tag` references. */
export interface SetSnapshotCleanup {
  /** Tags deleted (or already absent). */
  readonly deleted: readonly string[];
  /** `:latest` tags kept because the snapshot policy keeps that VM's snapshot. */
  readonly kept: readonly string[];
}

/**
 * Garbage-collects the snapshots of a deleted CocoonSet: every VM's `:hibernate`, and its
 * `:latest` unless the set's snapshot policy snapshots that VM ({@link shouldSnapshotVM}: never for
 * `never`, only the main agent for `main-only`). Absent tags count as deleted; the first failure
 * stops the sweep and rejects, so a retry picks up where it stopped.
 *
 * What it reports as kept is kept: a kept `:latest` is passed to `deleteManifest` as
 * `keepTags`, so a registry that deletes only by digest never loses it along with `:hibernate`;
 * when both name the same manifest there, the sweep rejects with `ERR_REGISTRY_STATUS` instead.
 *
 * @example
 * ```ts
 * await deleteSetSnapshots(registry, [{ vmName: "vk-ns-set-0", role: Role.Main }], set.spec?.snapshotPolicy);
 * ```
 */
export async function deleteSetSnapshots(
  registry: Pick<Registry, "deleteManifest">,
  vms: readonly SetVM[],
  snapshotPolicy: string | undefined,
  options: RegistryCallOptions = {},
): Promise<SetSnapshotCleanup> {
  const deleted: string[] = [];
  const kept: string[] = [];
  for (const { vmName, role } of vms) {
    const keepLatest = shouldSnapshotVM(snapshotPolicy === undefined ? {} : { snapshotPolicy }, role);
    for (const tag of keepLatest ? [SnapshotTag.Hibernate] : [SnapshotTag.Hibernate, SnapshotTag.Default]) {
      await registry.deleteManifest(vmName, tag, keepLatest ? { ...options, keepTags: [SnapshotTag.Default] } : options);
      deleted.push(`${vmName}:${tag}`);
    }
    if (keepLatest) kept.push(`${vmName}:${SnapshotTag.Default}`);
  }
  return { deleted, kept };
}

function rewrap(prefix: string, err: unknown): unknown {
  if (isRegistryError(err)) {
    return new RegistryError(err.code, `${prefix}: ${err.message}`, {
      ...(err.status !== undefined && { status: err.status }),
      ...(err.request !== undefined && { request: err.request }),
      cause: err,
    });
  }
  if (isCocoonError(err)) return new CocoonError(err.code, `${prefix}: ${err.message}`, { cause: err });
  return new RegistryError("ERR_REGISTRY_TRANSPORT", `${prefix}: ${messageOf(err)}`, { cause: err });
}
