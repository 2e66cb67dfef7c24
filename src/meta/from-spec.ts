import {
  agentModeOrDefault,
  backendOrDefault,
  osTypeOrDefault,
  snapshotPolicyOrDefault,
  toolboxModeOrDefault,
} from "../apis/v1/enum-guards.js";
import { ToolboxMode } from "../apis/v1/enums.js";
import { toGoInteger } from "./internal/strconv.js";
import { quantityString } from "./quantity.js";
import type { VMSpec } from "./vmspec.js";

/** The VM options shared by agent and toolbox specs (a `CocoonSet`'s `spec.agent` or `spec.toolboxes[i]` fits). */
export interface VMOptionsLike {
  os?: string | undefined;
  backend?: string | undefined;
  connType?: string | undefined;
  network?: string | undefined;
  forcePull?: boolean | undefined;
  noDirectIO?: boolean | undefined;
  probePort?: number | undefined;
  storage?: string | number | null | undefined;
}

/** The agent spec fields {@link fromAgentSpec} reads. */
export interface AgentSpecLike extends VMOptionsLike {
  image: string;
  mode?: string | undefined;
}

/** The toolbox spec fields {@link fromToolboxSpec} reads. */
export interface ToolboxSpecLike extends VMOptionsLike {
  image?: string | undefined;
  mode?: string | undefined;
}

function formatPort(port: number | undefined): string {
  if (port === undefined) return "";
  const value = toGoInteger(port, "probe port", 32);
  return value > 0n ? String(value) : "";
}

function commonFields(spec: VMOptionsLike, vmName: string, snapshotPolicy: string | undefined) {
  return {
    vmName,
    os: osTypeOrDefault(spec.os),
    storage: quantityString(spec.storage),
    network: spec.network ?? "",
    snapshotPolicy: snapshotPolicyOrDefault(snapshotPolicy),
    forcePull: spec.forcePull === true,
    noDirectIO: spec.noDirectIO === true,
    connType: spec.connType ?? "",
    backend: backendOrDefault(spec.backend),
    probePort: formatPort(spec.probePort),
  };
}

/**
 * Builds the VM spec the operator writes on an agent pod. Defaults fill empty enums (mode `clone`,
 * os `linux`, backend `cloud-hypervisor`, snapshot policy `always`); unknown values pass through
 * unvalidated; `managed` is always true. Storage becomes Go's canonical quantity text.
 *
 * @param snapshotPolicy - The CocoonSet's `spec.snapshotPolicy`.
 * @param forkFrom - The main agent's VM name for sub-agents, `""` for the main agent.
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a storage value that is not a quantity.
 * @example
 * ```ts
 * const spec = fromAgentSpec(set.spec.agent, vmNameForDeployment(ns, name, 0), set.spec.snapshotPolicy, "");
 * applyVMSpec(pod, spec);
 * ```
 */
export function fromAgentSpec(spec: AgentSpecLike, vmName: string, snapshotPolicy: string | undefined, forkFrom: string): VMSpec {
  return {
    ...commonFields(spec, vmName, snapshotPolicy),
    image: spec.image,
    mode: agentModeOrDefault(spec.mode),
    forkFrom,
    managed: true,
  };
}

/**
 * Builds the VM spec the operator writes on a toolbox pod: as {@link fromAgentSpec}, with mode
 * defaulting to `run`, no fork source, and `managed` false only for the raw mode `static`.
 */
export function fromToolboxSpec(spec: ToolboxSpecLike, vmName: string, snapshotPolicy: string | undefined): VMSpec {
  return {
    ...commonFields(spec, vmName, snapshotPolicy),
    image: spec.image ?? "",
    mode: toolboxModeOrDefault(spec.mode),
    forkFrom: "",
    managed: spec.mode !== ToolboxMode.Static,
  };
}
