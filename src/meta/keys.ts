import { Kind } from "../apis/v1/groupversion-info.js";

/**
 * Every annotation key of the cocoon contract, named after its Go constant minus the
 * `Annotation` prefix.
 *
 * Spelling trap kept from Go: `managed`, `force-pull`, `os`, `mode`, `image`, `storage`,
 * `network` and `snapshot-policy` live under `cocoonset.cocoonstack.io/`, while
 * `no-direct-io`, `conn-type`, `backend`, `probe-port` and `fork-from` live under
 * `vm.cocoonstack.io/`.
 *
 * @example
 * ```ts
 * pod.metadata?.annotations?.[Annotation.VMName]; // the "vm.cocoonstack.io/name" annotation
 * Annotation.HibernatedOnNode; // => "cocoonset.cocoonstack.io/hibernated-on-node"
 * ```
 */
export const Annotation = {
  Mode: "cocoonset.cocoonstack.io/mode",
  Image: "cocoonset.cocoonstack.io/image",
  Storage: "cocoonset.cocoonstack.io/storage",
  Managed: "cocoonset.cocoonstack.io/managed",
  OS: "cocoonset.cocoonstack.io/os",
  SnapshotPolicy: "cocoonset.cocoonstack.io/snapshot-policy",
  Network: "cocoonset.cocoonstack.io/network",
  ForcePull: "cocoonset.cocoonstack.io/force-pull",
  CocoonSetGeneration: "cocoonset.cocoonstack.io/generation",
  HibernatedOnNode: "cocoonset.cocoonstack.io/hibernated-on-node",
  VMID: "vm.cocoonstack.io/id",
  VMName: "vm.cocoonstack.io/name",
  IP: "vm.cocoonstack.io/ip",
  VNCPort: "vm.cocoonstack.io/vnc-port",
  Hibernate: "vm.cocoonstack.io/hibernate",
  RestoreFromHibernate: "vm.cocoonstack.io/restore-from-hibernate",
  KeepSnapshotOnDelete: "vm.cocoonstack.io/keep-snapshot-on-delete",
  ForkFrom: "vm.cocoonstack.io/fork-from",
  CloneFromDir: "vm.cocoonstack.io/clone-from-dir",
  ConnType: "vm.cocoonstack.io/conn-type",
  Backend: "vm.cocoonstack.io/backend",
  NoDirectIO: "vm.cocoonstack.io/no-direct-io",
  ProbePort: "vm.cocoonstack.io/probe-port",
  LifecycleState: "vm.cocoonstack.io/lifecycle-state",
  LifecycleObservedGeneration: "vm.cocoonstack.io/lifecycle-observed-generation",
  LifecycleStateMessage: "vm.cocoonstack.io/lifecycle-state-message",
} as const;
/** One of the {@link Annotation} keys. */
export type Annotation = (typeof Annotation)[keyof typeof Annotation];

/**
 * Every label key of the cocoon contract. `NodePool` and `SnapshotCompatibilityClass` carry
 * no `cocoonset.` prefix.
 *
 * @example
 * ```ts
 * const labelSelector = `${Label.CocoonSet}=demo,${Label.Role}=${Role.Main}`;
 * // => "cocoonset.cocoonstack.io/name=demo,cocoonset.cocoonstack.io/role=main"
 * await core.listNamespacedPod({ namespace, labelSelector });
 * ```
 */
export const Label = {
  CocoonSet: "cocoonset.cocoonstack.io/name",
  Role: "cocoonset.cocoonstack.io/role",
  Slot: "cocoonset.cocoonstack.io/slot",
  NodePool: "cocoonstack.io/pool",
  SnapshotCompatibilityClass: "cocoonstack.io/snapshot-cpu-class",
} as const;
/** One of the {@link Label} keys. */
export type Label = (typeof Label)[keyof typeof Label];

/** The role of a VM inside its CocoonSet, as written in the {@link Label.Role} label. */
export const Role = {
  Main: "main",
  SubAgent: "sub-agent",
  Toolbox: "toolbox",
} as const;
/** One of the {@link Role} values. */
export type Role = (typeof Role)[keyof typeof Role];

/**
 * Registry tags of VM snapshots: `hibernate` for suspend/wake, `latest` for the default. The docs'
 * `:latest` is `SnapshotTag.Default`, named after Go's `DefaultSnapshotTag` (`:hibernate` is
 * `SnapshotTag.Hibernate`, Go's `HibernateSnapshotTag`).
 *
 * @example
 * ```ts
 * const tag: SnapshotTag = SnapshotTag.Default; // "latest": the docs' <vm>:latest
 * ```
 */
export const SnapshotTag = {
  Hibernate: "hibernate",
  Default: "latest",
} as const;
/** One of the {@link SnapshotTag} values. */
export type SnapshotTag = (typeof SnapshotTag)[keyof typeof SnapshotTag];

/** The kind of the CocoonSet custom resource, as it appears in owner references: `Kind.CocoonSet` of `./apis/v1`. */
export const KIND_COCOONSET = Kind.CocoonSet;

/** The toleration key that marks pods meant for a virtual kubelet. */
export const TOLERATION_KEY = "virtual-kubelet.io/provider";

export { DEFAULT_NODE_POOL } from "../internal/crd-markers.js";

/** The node label a hostname affinity matches on (`corev1.LabelHostname`). */
export const HOSTNAME_LABEL = "kubernetes.io/hostname";
