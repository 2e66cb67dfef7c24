import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { BackendSchema, ConnTypeSchema, OSTypeSchema } from "./enum-schemas.js";
import { EnumDefault } from "./enums.js";
import type { Backend, ConnType, OSType } from "./enums.js";
import { int32 } from "./internal/schema-helpers.js";
import { QuantitySchema, ResourceRequirementsSchema } from "./resources.js";
import { goPointer } from "./go-tags.js";
import type { Quantity, ResourceRequirements } from "./resources.js";

/**
 * The VM-level fields shared by agent and toolbox specs (Go `VMOptions`, inlined with
 * `json:",inline"`), spread into {@link AgentSpecSchema} and {@link ToolboxSpecSchema}.
 */
export const vmOptionsShape = {
  os: OSTypeSchema.default(EnumDefault.OSType),
  backend: BackendSchema.default(EnumDefault.Backend),
  connType: ConnTypeSchema.optional(),
  network: z.string().optional().describe("Network selects the cluster network to attach the VM to."),
  forcePull: z.boolean().optional().describe("ForcePull bypasses the image cache and re-pulls from upstream."),
  noDirectIO: z
    .boolean()
    .optional()
    .describe(
      "NoDirectIO disables O_DIRECT on writable disks, using host page cache instead. Useful for dev/test " +
        "with few VMs and abundant host memory. Cloud Hypervisor only; ignored by firecracker.",
    ),
  probePort: int32().min(0).max(65535).optional().describe("ProbePort overrides the default ICMP probe with a TCP port check."),
  storage: goPointer(QuantitySchema.optional()).describe("Storage sizes the VM root volume."),
  resources: ResourceRequirementsSchema.optional(),
};

/**
 * Validates the VM options alone (Go `VMOptions`): defaults `os=linux`, `backend=cloud-hypervisor`;
 * `probePort` within 0..65535; `storage` a quantity.
 */
export const VMOptionsSchema = withSharedFailureShape(
  z.object(vmOptionsShape).describe("VMOptions are VM-level knobs shared by AgentSpec and ToolboxSpec."),
);
/** VM options as stored, defaults applied: the VM-level knobs shared by agent and toolbox specs. */
export interface VMOptions {
  /** OSType defines the guest operating system type; `linux` by default. */
  os: OSType;
  /** Backend selects the hypervisor backend used to run a VM; `cloud-hypervisor` by default. */
  backend: Backend;
  /** ConnType is the connection protocol advertised for a VM; unset falls back to OS-based inference. */
  connType?: ConnType | undefined;
  /** Network selects the cluster network to attach the VM to. */
  network?: string | undefined;
  /** ForcePull bypasses the image cache and re-pulls from upstream. */
  forcePull?: boolean | undefined;
  /** NoDirectIO disables O_DIRECT on writable disks, using host page cache instead (Cloud Hypervisor only). */
  noDirectIO?: boolean | undefined;
  /** ProbePort overrides the default ICMP probe with a TCP port check (0..65535). */
  probePort?: number | undefined;
  /** Storage sizes the VM root volume. */
  storage?: Quantity | undefined;
  /** ResourceRequirements describes the compute resource requirements. */
  resources?: ResourceRequirements | undefined;
}
/** VM options as written. */
export type VMOptionsInput = z.input<typeof VMOptionsSchema>;
