import type { PodLike } from "../objects.js";

/**
 * A pod as {@link decideKubeletAction} reads it: client-node's `V1Pod`, a watched pod (timestamps as
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
 * What the virtual kubelet knows of a pod's VM on its node: the second input of {@link decideKubeletAction}.
 *
 * @example
 * ```ts
 * const facts: KubeletVMFacts = { exists: false, keptSnapshot: false };
 * // once a pull of <vm>:hibernate answered 404:
 * const afterPull: KubeletVMFacts = { ...facts, hibernateSnapshot: "missing" };
 * ```
 */
export interface KubeletVMFacts {
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
 * The kinds of {@link KubeletDecision}, as values to switch on.
 *
 * @example
 * ```ts
 * const decision = decideKubeletAction(pod, { exists: false, keptSnapshot: true });
 * if (decision.action === KubeletAction.Wake) log.info(`restore ${vmName} from the ${decision.from} copy`);
 * ```
 */
export const KubeletAction = {
  Create: "create",
  Hibernate: "hibernate",
  Wake: "wake",
  Delete: "delete",
  Fail: "fail",
  None: "none",
} as const;
/** One of the {@link KubeletAction} values. */
export type KubeletAction = (typeof KubeletAction)[keyof typeof KubeletAction];

/**
 * Why {@link decideKubeletAction} decided {@link KubeletAction.None}: the pod is not a cocoon pod, its VM
 * runs (report it `ready`), it is hibernated (report it `hibernated`), it failed (a terminal state
 * the operator acts on), or its VM is unmanaged (it runs outside the virtual kubelet: report its runtime).
 *
 * @example
 * ```ts
 * const reason: NoneReason = "running";
 * ```
 */
export type NoneReason = "not-a-cocoon-pod" | "running" | "hibernated" | "failed" | "unmanaged";

/**
 * The virtual kubelet's next step for one pod, as {@link decideKubeletAction} returns it:
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
 * const decision: KubeletDecision = { action: "delete", removeVM: true, keepSnapshot: true, saveLatest: false };
 * ```
 */
export type KubeletDecision =
  | { readonly action: typeof KubeletAction.Create }
  | { readonly action: typeof KubeletAction.Hibernate }
  | { readonly action: typeof KubeletAction.Wake; readonly from: "kept" | "registry" }
  | {
      readonly action: typeof KubeletAction.Delete;
      readonly removeVM: boolean;
      readonly keepSnapshot: boolean;
      readonly saveLatest: boolean;
    }
  | { readonly action: typeof KubeletAction.Fail; readonly message: string }
  | { readonly action: typeof KubeletAction.None; readonly reason: NoneReason };
