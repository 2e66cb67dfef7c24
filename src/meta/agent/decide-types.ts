import type { PodLike } from "../objects.js";

/**
 * A pod as {@link decideAgentAction} reads it: client-node's `V1Pod`, a watched pod (timestamps as
 * strings) and plain JSON all fit.
 *
 * @example
 * ```ts
 * const deleting: DecisionPod = { metadata: { name: "demo-0", deletionTimestamp: "2026-08-12T10:00:00Z" } };
 * ```
 */
export interface DecisionPod extends PodLike {
  metadata?: (NonNullable<PodLike["metadata"]> & { deletionTimestamp?: Date | string | null | undefined }) | undefined;
}

/**
 * What the agent knows of a pod's VM on its node: the second input of {@link decideAgentAction}.
 *
 * @example
 * ```ts
 * const facts: AgentVMFacts = { exists: false, keptSnapshot: false };
 * // once a pull of <vm>:hibernate answered 404:
 * const afterPull: AgentVMFacts = { ...facts, hibernateSnapshot: "missing" };
 * ```
 */
export interface AgentVMFacts {
  /** A VM of this pod exists on the node (vk-cocoon's `vmForPod`, or `vmByName` for a new pod). */
  readonly exists: boolean;
  /** The node holds the VM's own snapshot (vk-cocoon: `cocoon snapshot inspect <vm>` finds it). */
  readonly keptSnapshot: boolean;
  /**
   * `"missing"` once a pull of `<vm>:hibernate` answered that the registry has no such snapshot
   * (`ERR_REGISTRY_NOT_FOUND`); leave it out before the first pull. Any other pull failure is not a
   * fact about the snapshot: retry, or report it failed yourself.
   */
  readonly hibernateSnapshot?: "missing" | undefined;
}

/**
 * The kinds of {@link AgentDecision}, as values to switch on.
 *
 * @example
 * ```ts
 * const decision = decideAgentAction(pod, { exists: false, keptSnapshot: true });
 * if (decision.action === AgentAction.Wake) log.info(`restore ${vmName} from the ${decision.from} copy`);
 * ```
 */
export const AgentAction = {
  Create: "create",
  Hibernate: "hibernate",
  Wake: "wake",
  Delete: "delete",
  Fail: "fail",
  None: "none",
} as const;
/** One of the {@link AgentAction} values. */
export type AgentAction = (typeof AgentAction)[keyof typeof AgentAction];

/**
 * Why {@link decideAgentAction} decided {@link AgentAction.None}: the pod is not a cocoon pod, its VM
 * runs (report it `ready`), it is hibernated (report it `hibernated`), it failed (a terminal state
 * the operator acts on), or its VM is unmanaged (it runs outside the agent: report its runtime).
 *
 * @example
 * ```ts
 * const reason: NoneReason = "running";
 * ```
 */
export type NoneReason = "not-a-cocoon-pod" | "running" | "hibernated" | "failed" | "unmanaged";

/**
 * The agent's next step for one pod, as {@link decideAgentAction} returns it:
 *
 * - `create`: bring the VM up from its image (vk-cocoon's clone, run or fork), then report `ready`;
 * - `hibernate`: snapshot the VM, push `<vm>:hibernate`, remove the VM, then report `hibernated`;
 * - `wake`: clone the VM from its hibernation snapshot, the node's kept copy (`from: "kept"`) or a
 *   pull of `<vm>:hibernate` (`from: "registry"`), then report `ready`;
 * - `delete`: remove the VM when there is one (`removeVM`), push it as `:latest` first when
 *   `saveLatest`, keep the node's snapshot when `keepSnapshot` (a seat release) or drop it, then
 *   finish the pod's deletion;
 * - `fail`: nothing can be done; report `failed` with `message`;
 * - `none`: nothing to do to the VM; `reason` says what to report.
 *
 * @example
 * ```ts
 * const decision: AgentDecision = { action: "delete", removeVM: true, keepSnapshot: true, saveLatest: false };
 * ```
 */
export type AgentDecision =
  | { readonly action: typeof AgentAction.Create }
  | { readonly action: typeof AgentAction.Hibernate }
  | { readonly action: typeof AgentAction.Wake; readonly from: "kept" | "registry" }
  | { readonly action: typeof AgentAction.Delete; readonly removeVM: boolean; readonly keepSnapshot: boolean; readonly saveLatest: boolean }
  | { readonly action: typeof AgentAction.Fail; readonly message: string }
  | { readonly action: typeof AgentAction.None; readonly reason: NoneReason };
