import { z } from "zod";
import { BackendSchema, ConnTypeSchema, OSTypeSchema } from "./enum-schemas.js";
import { EnumDefault } from "./enums.js";
import { int32 } from "./internal/schema-helpers.js";
import { QuantitySchema, ResourceRequirementsSchema } from "./resources.js";

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
  storage: QuantitySchema.optional().describe("Storage sizes the VM root volume."),
  resources: ResourceRequirementsSchema.optional(),
};

/**
 * Validates the VM options alone (Go `VMOptions`): defaults `os=linux`, `backend=cloud-hypervisor`;
 * `probePort` within 0..65535; `storage` a quantity.
 */
export const VMOptionsSchema = z.object(vmOptionsShape).describe("VMOptions are VM-level knobs shared by AgentSpec and ToolboxSpec.");
/** VM options as stored. */
export type VMOptions = z.output<typeof VMOptionsSchema>;
/** VM options as written. */
export type VMOptionsInput = z.input<typeof VMOptionsSchema>;
