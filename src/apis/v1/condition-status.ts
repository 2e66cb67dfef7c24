/** Status values of a condition (`metav1.ConditionStatus`). Kept free of zod so `./k8s` can share it. */
export const ConditionStatus = {
  /** The condition holds. */
  True: "True",
  /** The condition does not hold. */
  False: "False",
  /** It cannot be told whether the condition holds. */
  Unknown: "Unknown",
} as const;
/** One of the {@link ConditionStatus} values. */
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];
