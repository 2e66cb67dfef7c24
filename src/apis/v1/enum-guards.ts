import {
  AgentMode,
  Backend,
  CocoonHibernationPhase,
  CocoonSetPhase,
  ConnType,
  EnumDefault,
  HibernatePolicy,
  HibernationDesire,
  OSType,
  SnapshotPolicy,
  ToolboxMode,
} from "./enums.js";

/** Builds an exact, case-sensitive membership test over an enum object's values (Go `slices.Contains`). */
function memberOf<T extends string>(values: Readonly<Record<string, T>>): (value: unknown) => value is T {
  const set: ReadonlySet<unknown> = new Set<unknown>(Object.values(values));
  return (value: unknown): value is T => set.has(value);
}

/** Reports whether `value` is exactly one of the {@link AgentMode} values (Go `AgentMode.IsValid`; `""` is not). Never throws. */
export const isAgentMode: (value: unknown) => value is AgentMode = memberOf(AgentMode);
/** Reports whether `value` is exactly one of the {@link ToolboxMode} values (Go `ToolboxMode.IsValid`). Never throws. */
export const isToolboxMode: (value: unknown) => value is ToolboxMode = memberOf(ToolboxMode);
/** Reports whether `value` is exactly one of the {@link OSType} values (Go `OSType.IsValid`, `macos` included). Never throws. */
export const isOSType: (value: unknown) => value is OSType = memberOf(OSType);
/** Reports whether `value` is exactly one of the {@link SnapshotPolicy} values (Go `SnapshotPolicy.IsValid`). Never throws. */
export const isSnapshotPolicy: (value: unknown) => value is SnapshotPolicy = memberOf(SnapshotPolicy);
/** Reports whether `value` is exactly one of the {@link HibernatePolicy} values (Go `HibernatePolicy.IsValid`). Never throws. */
export const isHibernatePolicy: (value: unknown) => value is HibernatePolicy = memberOf(HibernatePolicy);
/** Reports whether `value` is exactly one of the {@link CocoonSetPhase} values (Go has no `IsValid` for it). Never throws. */
export const isCocoonSetPhase: (value: unknown) => value is CocoonSetPhase = memberOf(CocoonSetPhase);
/** Reports whether `value` is exactly one of the {@link ConnType} values (Go `ConnType.IsValid`; `""` is not). Never throws. */
export const isConnType: (value: unknown) => value is ConnType = memberOf(ConnType);
/** Reports whether `value` is exactly one of the {@link Backend} values (Go `Backend.IsValid`). Never throws. */
export const isBackend: (value: unknown) => value is Backend = memberOf(Backend);
/** Reports whether `value` is exactly one of the {@link HibernationDesire} values (Go `HibernationDesire.IsValid`). Never throws. */
export const isHibernationDesire: (value: unknown) => value is HibernationDesire = memberOf(HibernationDesire);
/** Reports whether `value` is exactly one of the {@link CocoonHibernationPhase} values (Go has no `IsValid` for it). Never throws. */
export const isCocoonHibernationPhase: (value: unknown) => value is CocoonHibernationPhase = memberOf(CocoonHibernationPhase);

/*
 * The `...OrDefault` functions are Go's `Default()` methods, i.e. `cmp.Or(v, X)`: an empty or missing
 * value takes the default and anything else is returned unchanged, without validation. Each has two
 * signatures: a known value (or `""`/`undefined`) gives back the enum type; an arbitrary string (say,
 * read from an annotation) gives back `string`, because an unknown value passes through, as
 * `Backend("qemu").Default() == "qemu"` does in Go.
 */

/**
 * Returns `mode`, or {@link AgentMode.Clone} when it is empty or missing (Go `AgentMode.Default`).
 *
 * @example
 * ```ts
 * agentModeOrDefault(undefined); // => "clone"
 * agentModeOrDefault("run"); // => "run"
 * agentModeOrDefault("fork" as string); // => "fork" (unknown values pass through)
 * ```
 */
export function agentModeOrDefault(mode?: AgentMode | ""): AgentMode;
export function agentModeOrDefault(mode?: string): string;
export function agentModeOrDefault(mode?: string): string {
  return mode || EnumDefault.AgentMode;
}

/** Returns `mode`, or {@link ToolboxMode.Run} when it is empty or missing (Go `ToolboxMode.Default`). */
export function toolboxModeOrDefault(mode?: ToolboxMode | ""): ToolboxMode;
export function toolboxModeOrDefault(mode?: string): string;
export function toolboxModeOrDefault(mode?: string): string {
  return mode || EnumDefault.ToolboxMode;
}

/** Returns `os`, or {@link OSType.Linux} when it is empty or missing (Go `OSType.Default`). */
export function osTypeOrDefault(os?: OSType | ""): OSType;
export function osTypeOrDefault(os?: string): string;
export function osTypeOrDefault(os?: string): string {
  return os || EnumDefault.OSType;
}

/** Returns `policy`, or {@link SnapshotPolicy.Always} when it is empty or missing (Go `SnapshotPolicy.Default`). */
export function snapshotPolicyOrDefault(policy?: SnapshotPolicy | ""): SnapshotPolicy;
export function snapshotPolicyOrDefault(policy?: string): string;
export function snapshotPolicyOrDefault(policy?: string): string {
  return policy || EnumDefault.SnapshotPolicy;
}

/**
 * Returns `policy`, or {@link HibernatePolicy.Retain} when it is empty or missing (Go `HibernatePolicy.Default`).
 *
 * @example
 * ```ts
 * if (hibernatePolicyOrDefault(set.spec?.hibernatePolicy) === HibernatePolicy.Release) await releaseSeat(clients, mainPod);
 * hibernatePolicyOrDefault(""); // => "retain"
 * ```
 */
export function hibernatePolicyOrDefault(policy?: HibernatePolicy | ""): HibernatePolicy;
export function hibernatePolicyOrDefault(policy?: string): string;
export function hibernatePolicyOrDefault(policy?: string): string {
  return policy || EnumDefault.HibernatePolicy;
}

/**
 * Returns `backend`, or {@link Backend.CloudHypervisor} when it is empty or missing (Go `Backend.Default`).
 *
 * @example
 * ```ts
 * backendOrDefault(""); // => "cloud-hypervisor"
 * backendOrDefault("qemu" as string); // => "qemu"
 * ```
 */
export function backendOrDefault(backend?: Backend | ""): Backend;
export function backendOrDefault(backend?: string): string;
export function backendOrDefault(backend?: string): string {
  return backend || EnumDefault.Backend;
}
