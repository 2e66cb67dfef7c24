// The ten enums of `cocoonset.cocoonstack.io/v1` as `as const` objects with a type of the same name,
// free of zod: `./meta` (which loads nothing) reads them, and `enum-schemas.ts` wraps them in `z.enum`.

/** Provisioning mode of an agent VM: `clone` forks the main agent's snapshot, `run` boots the image. */
export const AgentMode = { Clone: "clone", Run: "run" } as const;
/** One of the {@link AgentMode} values. */
export type AgentMode = (typeof AgentMode)[keyof typeof AgentMode];

/** Provisioning mode of a toolbox VM. */
export const ToolboxMode = { Run: "run", Clone: "clone", Static: "static" } as const;
/** One of the {@link ToolboxMode} values. */
export type ToolboxMode = (typeof ToolboxMode)[keyof typeof ToolboxMode];

/** Guest operating system of a VM (Go `OSLinux`, `OSWindows`, `OSAndroid`, `OSMacos`). */
export const OSType = { Linux: "linux", Windows: "windows", Android: "android", Macos: "macos" } as const;
/** One of the {@link OSType} values. */
export type OSType = (typeof OSType)[keyof typeof OSType];

/** When VM snapshots are taken. */
export const SnapshotPolicy = { Always: "always", MainOnly: "main-only", Never: "never" } as const;
/** One of the {@link SnapshotPolicy} values. */
export type SnapshotPolicy = (typeof SnapshotPolicy)[keyof typeof SnapshotPolicy];

/** Whether a suspended set keeps (`retain`) or frees (`release`) its VMs' scheduling seats. */
export const HibernatePolicy = { Retain: "retain", Release: "release" } as const;
/** One of the {@link HibernatePolicy} values. */
export type HibernatePolicy = (typeof HibernatePolicy)[keyof typeof HibernatePolicy];

/** Lifecycle phase of a CocoonSet, as reported in `status.phase`. */
export const CocoonSetPhase = {
  Pending: "Pending",
  Running: "Running",
  Scaling: "Scaling",
  Suspending: "Suspending",
  Suspended: "Suspended",
  Waking: "Waking",
  Migrating: "Migrating",
  Failed: "Failed",
} as const;
/** One of the {@link CocoonSetPhase} values. */
export type CocoonSetPhase = (typeof CocoonSetPhase)[keyof typeof CocoonSetPhase];

/**
 * Connection protocol advertised for a VM. There is no default: empty means "infer from the OS"
 * (Linux→ssh, Windows→rdp, Android→adb).
 */
export const ConnType = { SSH: "ssh", RDP: "rdp", VNC: "vnc", ADB: "adb" } as const;
/** One of the {@link ConnType} values. */
export type ConnType = (typeof ConnType)[keyof typeof ConnType];

/** Hypervisor backend that runs a VM. Firecracker only supports OCI VM images (no cloudimg, no Windows). */
export const Backend = { CloudHypervisor: "cloud-hypervisor", Firecracker: "firecracker" } as const;
/** One of the {@link Backend} values. */
export type Backend = (typeof Backend)[keyof typeof Backend];

/** The hibernation state a CocoonHibernation asks for. */
export const HibernationDesire = { Hibernate: "Hibernate", Wake: "Wake" } as const;
/** One of the {@link HibernationDesire} values. */
export type HibernationDesire = (typeof HibernationDesire)[keyof typeof HibernationDesire];

/** Lifecycle phase of a CocoonHibernation, as reported in `status.phase`. */
export const CocoonHibernationPhase = {
  Pending: "Pending",
  Hibernating: "Hibernating",
  Hibernated: "Hibernated",
  Waking: "Waking",
  Active: "Active",
  Failed: "Failed",
} as const;
/** One of the {@link CocoonHibernationPhase} values. */
export type CocoonHibernationPhase = (typeof CocoonHibernationPhase)[keyof typeof CocoonHibernationPhase];

/**
 * The CRD default of each defaulted enum: the `+kubebuilder:default` markers and Go's `Default()`
 * methods (`cmp.Or`), read by the schemas, the `...OrDefault` helpers and `./meta`.
 *
 * @internal
 */
export const EnumDefault = {
  AgentMode: AgentMode.Clone,
  ToolboxMode: ToolboxMode.Run,
  OSType: OSType.Linux,
  SnapshotPolicy: SnapshotPolicy.Always,
  HibernatePolicy: HibernatePolicy.Retain,
  Backend: Backend.CloudHypervisor,
} as const;
