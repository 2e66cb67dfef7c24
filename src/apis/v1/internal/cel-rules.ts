/**
 * The CEL rules (`x-kubernetes-validations`) of the Go types, word for word, and the TypeScript
 * checks that stand in for them.
 *
 * @internal
 */

/** A CRD validation rule as it appears in `x-kubernetes-validations`. */
export interface ValidationRule {
  readonly rule: string;
  readonly message: string;
}

/** Message of the create/update rule on a CocoonSet's `spec`. */
export const RELEASE_REQUIRES_MAIN_ONLY_MESSAGE = "hibernatePolicy=release requires agent.replicas=0 and no toolboxes";

/** Rule on a CocoonSet's `spec`: a `release` hibernate policy needs a main-only set. */
export const RELEASE_REQUIRES_MAIN_ONLY_RULE: ValidationRule = {
  rule:
    "!has(self.hibernatePolicy) || self.hibernatePolicy != 'release' || ((!has(self.agent.replicas) || " +
    "self.agent.replicas == 0) && (!has(self.toolboxes) || size(self.toolboxes) == 0))",
  message: RELEASE_REQUIRES_MAIN_ONLY_MESSAGE,
};

/** Message of the transition rule on a CocoonSet's `spec`. */
export const SNAPSHOT_CLASS_IMMUTABLE_MESSAGE = "snapshotCompatibilityClass is immutable once set";

/** Transition rule on a CocoonSet's `spec`: `snapshotCompatibilityClass` never changes once present. */
export const SNAPSHOT_CLASS_IMMUTABLE_RULE: ValidationRule = {
  rule:
    "!has(oldSelf.snapshotCompatibilityClass) || (has(self.snapshotCompatibilityClass) && " +
    "self.snapshotCompatibilityClass == oldSelf.snapshotCompatibilityClass)",
  message: SNAPSHOT_CLASS_IMMUTABLE_MESSAGE,
};

/** Message of the transition rule on a CocoonHibernation's `spec.podRef`. */
export const POD_REF_IMMUTABLE_MESSAGE = "spec.podRef is immutable";

/** Transition rule on a CocoonHibernation's `spec.podRef`. */
export const POD_REF_IMMUTABLE_RULE: ValidationRule = { rule: "self == oldSelf", message: POD_REF_IMMUTABLE_MESSAGE };
