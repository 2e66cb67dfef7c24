import {
  agentModeOrDefault,
  backendOrDefault,
  osTypeOrDefault,
  snapshotPolicyOrDefault,
  toolboxModeOrDefault,
} from "../apis/v1/enum-guards.js";
import { ToolboxMode } from "../apis/v1/enums.js";
import { toGoInteger } from "../internal/go/index.js";
import { cachedQuantityString } from "./internal/quantity-cache.js";
import type { VMSpec } from "./vmspec.js";
import type { Loose } from "./loose.js";
import type { AgentSpecInput, ToolboxSpecInput } from "../apis/v1/cocoonset-spec.js";
import type { VMOptionsInput } from "../apis/v1/vm-options.js";

/**
 * The VM options shared by agent and toolbox specs (a `CocoonSet`'s `spec.agent` or
 * `spec.toolboxes[i]` fits): {@link Loose} of the schema's input, so an OS or backend may be any string.
 *
 * @example
 * ```ts
 * const options: VMOptionsLike = { os: "linux", storage: "20Gi", probePort: 22 };
 * ```
 */
export type VMOptionsLike = Loose<VMOptionsInput>;

/**
 * The agent spec fields {@link fromAgentSpec} reads: {@link Loose} of the schema's input (`image` required).
 *
 * @example
 * ```ts
 * const agent: AgentSpecLike = { image: "ubuntu:24.04", mode: "run" };
 * ```
 */
export type AgentSpecLike = Loose<AgentSpecInput>;

/**
 * The toolbox spec fields {@link fromToolboxSpec} reads: {@link Loose} of the schema's input with
 * every field optional (it reads no `name`).
 *
 * @example
 * ```ts
 * const toolbox: ToolboxSpecLike = { image: "chrome:1", mode: "static" };
 * ```
 */
export type ToolboxSpecLike = Loose<Partial<ToolboxSpecInput>>;

function formatPort(port: number | undefined): string {
  if (port === undefined) return "";
  // An int32 number needs no bigint: same text, same refusals (the slow path below throws).
  if (typeof port === "number" && (port | 0) === port) return port > 0 ? String(port) : "";
  const value = toGoInteger(port, "probe port", 32);
  return value > 0n ? String(value) : "";
}

/**
 * One flat literal with every field (no spread of shared fields, which cost about 70% of the
 * call): V8 gives it one hidden class. The fields where agent and toolbox differ come last, as
 * plain arguments, so no second object is built.
 */
function buildSpec(
  spec: VMOptionsLike,
  vmName: string,
  snapshotPolicy: string | undefined,
  image: string,
  mode: string,
  forkFrom: string,
  managed: boolean,
): VMSpec {
  return {
    vmName,
    os: osTypeOrDefault(spec.os),
    storage: cachedQuantityString(spec.storage),
    network: spec.network ?? "",
    snapshotPolicy: snapshotPolicyOrDefault(snapshotPolicy),
    forcePull: spec.forcePull === true,
    noDirectIO: spec.noDirectIO === true,
    connType: spec.connType ?? "",
    backend: backendOrDefault(spec.backend),
    probePort: formatPort(spec.probePort),
    image,
    mode,
    forkFrom,
    managed,
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
 * const { agent, snapshotPolicy } = CocoonSetSpecSchema.parse(set.spec);
 * const spec = fromAgentSpec(agent, vmNameForDeployment(ns, name, 0), snapshotPolicy, "");
 * applyVMSpec(pod, spec);
 * ```
 */
export function fromAgentSpec(spec: AgentSpecLike, vmName: string, snapshotPolicy: string | undefined, forkFrom: string): VMSpec {
  return buildSpec(spec, vmName, snapshotPolicy, spec.image, agentModeOrDefault(spec.mode), forkFrom, true);
}

/**
 * Builds the VM spec the operator writes on a toolbox pod: as {@link fromAgentSpec}, with mode
 * defaulting to `run`, no fork source, and `managed` false only for the raw mode `static`.
 */
export function fromToolboxSpec(spec: ToolboxSpecLike, vmName: string, snapshotPolicy: string | undefined): VMSpec {
  return buildSpec(spec, vmName, snapshotPolicy, spec.image ?? "", toolboxModeOrDefault(spec.mode), "", spec.mode !== ToolboxMode.Static);
}
