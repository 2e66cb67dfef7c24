import { z } from "zod";

/** Provisioning mode of an agent VM: `clone` forks the main agent's snapshot, `run` boots the image. */
export const AgentMode = { Clone: "clone", Run: "run" } as const;
/** One of the {@link AgentMode} values. */
export type AgentMode = (typeof AgentMode)[keyof typeof AgentMode];
/** Validates an {@link AgentMode}; the CRD default is `clone`. */
export const AgentModeSchema = z.enum(AgentMode).describe("AgentMode defines the mode of an agent VM.");

/** Provisioning mode of a toolbox VM. */
export const ToolboxMode = { Run: "run", Clone: "clone", Static: "static" } as const;
/** One of the {@link ToolboxMode} values. */
export type ToolboxMode = (typeof ToolboxMode)[keyof typeof ToolboxMode];
/** Validates a {@link ToolboxMode}; the CRD default is `run`. */
export const ToolboxModeSchema = z.enum(ToolboxMode).describe("ToolboxMode defines the mode of a toolbox VM.");

/** Guest operating system of a VM (Go `OSLinux`, `OSWindows`, `OSAndroid`, `OSMacos`). */
export const OSType = { Linux: "linux", Windows: "windows", Android: "android", Macos: "macos" } as const;
/** One of the {@link OSType} values. */
export type OSType = (typeof OSType)[keyof typeof OSType];
/** Validates an {@link OSType}; the CRD default is `linux`. */
export const OSTypeSchema = z.enum(OSType).describe("OSType defines the guest operating system type.");

/** When VM snapshots are taken. */
export const SnapshotPolicy = { Always: "always", MainOnly: "main-only", Never: "never" } as const;
/** One of the {@link SnapshotPolicy} values. */
export type SnapshotPolicy = (typeof SnapshotPolicy)[keyof typeof SnapshotPolicy];
/** Validates a {@link SnapshotPolicy}; the CRD default is `always`. */
export const SnapshotPolicySchema = z.enum(SnapshotPolicy).describe("SnapshotPolicy defines when VM snapshots are taken.");

/** Whether a suspended set keeps (`retain`) or frees (`release`) its VMs' scheduling seats. */
export const HibernatePolicy = { Retain: "retain", Release: "release" } as const;
/** One of the {@link HibernatePolicy} values. */
export type HibernatePolicy = (typeof HibernatePolicy)[keyof typeof HibernatePolicy];
/** Validates a {@link HibernatePolicy}; the CRD default is `retain`. */
export const HibernatePolicySchema = z
  .enum(HibernatePolicy)
  .describe("HibernatePolicy keeps (retain) or frees (release) the VM's scheduling seat while suspended.");

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
/** Validates a {@link CocoonSetPhase}. */
export const CocoonSetPhaseSchema = z
  .enum(CocoonSetPhase)
  .describe("CocoonSetPhase represents the lifecycle phase of a CocoonSet.");

/**
 * Connection protocol advertised for a VM. There is no default: empty means "infer from the OS"
 * (Linux→ssh, Windows→rdp, Android→adb).
 */
export const ConnType = { SSH: "ssh", RDP: "rdp", VNC: "vnc", ADB: "adb" } as const;
/** One of the {@link ConnType} values. */
export type ConnType = (typeof ConnType)[keyof typeof ConnType];
/** Validates a {@link ConnType}. */
export const ConnTypeSchema = z
  .enum(ConnType)
  .describe(
    "ConnType is the connection protocol advertised for a VM. Empty falls back to OS-based inference " +
      "(Linux→ssh, Windows→rdp, Android→adb); set explicitly to override (e.g. Linux+xrdp→rdp).",
  );

/** Hypervisor backend that runs a VM. Firecracker only supports OCI VM images (no cloudimg, no Windows). */
export const Backend = { CloudHypervisor: "cloud-hypervisor", Firecracker: "firecracker" } as const;
/** One of the {@link Backend} values. */
export type Backend = (typeof Backend)[keyof typeof Backend];
/** Validates a {@link Backend}; the CRD default is `cloud-hypervisor`. */
export const BackendSchema = z
  .enum(Backend)
  .describe(
    "Backend selects the hypervisor backend used to run a VM. Firecracker uses direct kernel boot and " +
      "only supports OCI VM images (cloudimg URLs and Windows are rejected).",
  );

/** The hibernation state a CocoonHibernation asks for. */
export const HibernationDesire = { Hibernate: "Hibernate", Wake: "Wake" } as const;
/** One of the {@link HibernationDesire} values. */
export type HibernationDesire = (typeof HibernationDesire)[keyof typeof HibernationDesire];
/** Validates a {@link HibernationDesire}. */
export const HibernationDesireSchema = z
  .enum(HibernationDesire)
  .describe("HibernationDesire defines the desired hibernation state.");

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
/** Validates a {@link CocoonHibernationPhase}. */
export const CocoonHibernationPhaseSchema = z
  .enum(CocoonHibernationPhase)
  .describe("CocoonHibernationPhase represents the lifecycle phase of a CocoonHibernation.");
