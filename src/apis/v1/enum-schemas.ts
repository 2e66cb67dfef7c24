import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import * as Enums from "./enums.js";

/** Validates an {@link AgentMode}; the CRD default is `clone`. */
export const AgentModeSchema = withSharedFailureShape(z.enum(Enums.AgentMode).describe("AgentMode defines the mode of an agent VM."));

/** Validates a {@link ToolboxMode}; the CRD default is `run`. */
export const ToolboxModeSchema = withSharedFailureShape(
  z.enum(Enums.ToolboxMode).describe("ToolboxMode defines the mode of a toolbox VM."),
);

/** Validates an {@link OSType}; the CRD default is `linux`. */
export const OSTypeSchema = withSharedFailureShape(z.enum(Enums.OSType).describe("OSType defines the guest operating system type."));

/** Validates a {@link SnapshotPolicy}; the CRD default is `always`. */
export const SnapshotPolicySchema = withSharedFailureShape(
  z.enum(Enums.SnapshotPolicy).describe("SnapshotPolicy defines when VM snapshots are taken."),
);

/** Validates a {@link HibernatePolicy}; the CRD default is `retain`. */
export const HibernatePolicySchema = withSharedFailureShape(
  z.enum(Enums.HibernatePolicy).describe("HibernatePolicy keeps (retain) or frees (release) the VM's scheduling seat while suspended."),
);

/** Validates a {@link CocoonSetPhase}. */
export const CocoonSetPhaseSchema = withSharedFailureShape(
  z.enum(Enums.CocoonSetPhase).describe("CocoonSetPhase represents the lifecycle phase of a CocoonSet."),
);

/** Validates a {@link ConnType}. */
export const ConnTypeSchema = withSharedFailureShape(
  z
    .enum(Enums.ConnType)
    .describe(
      "ConnType is the connection protocol advertised for a VM. Empty falls back to OS-based inference " +
        "(Linux→ssh, Windows→rdp, Android→adb); set explicitly to override (e.g. Linux+xrdp→rdp).",
    ),
);

/** Validates a {@link Backend}; the CRD default is `cloud-hypervisor`. */
export const BackendSchema = withSharedFailureShape(
  z
    .enum(Enums.Backend)
    .describe(
      "Backend selects the hypervisor backend used to run a VM. Firecracker uses direct kernel boot and " +
        "only supports OCI VM images (cloudimg URLs and Windows are rejected).",
    ),
);

/** Validates a {@link HibernationDesire}. */
export const HibernationDesireSchema = withSharedFailureShape(
  z.enum(Enums.HibernationDesire).describe("HibernationDesire defines the desired hibernation state."),
);

/** Validates a {@link CocoonHibernationPhase}. */
export const CocoonHibernationPhaseSchema = withSharedFailureShape(
  z.enum(Enums.CocoonHibernationPhase).describe("CocoonHibernationPhase represents the lifecycle phase of a CocoonHibernation."),
);
