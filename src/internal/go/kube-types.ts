// k8s.io/api and apimachinery types that more than one table embeds, field for field with their
// json names and omitempty: the pod the operator builds (meta/pods) and the CRDs a merge patch
// marshals (k8s/patch) describe them once, here.
import { BOOL, QUANTITY, STRING, always, map, oe, ptr, slice, struct } from "./go-type.js";

/** metav1.OwnerReference. */
export const OWNER_REFERENCE = struct(
  always("apiVersion", STRING),
  always("kind", STRING),
  always("name", STRING),
  always("uid", STRING),
  oe("controller", ptr(BOOL)),
  oe("blockOwnerDeletion", ptr(BOOL)),
);

/** corev1.ResourceRequirements. */
export const RESOURCE_REQUIREMENTS = struct(
  oe("limits", map(QUANTITY)),
  oe("requests", map(QUANTITY)),
  oe("claims", slice(struct(always("name", STRING), oe("request", STRING)))),
);

/** corev1.ConfigMapEnvSource and corev1.SecretEnvSource: the same two fields. */
const envSource = struct(oe("name", STRING), oe("optional", ptr(BOOL)));

/** corev1.EnvFromSource. */
export const ENV_FROM_SOURCE = struct(oe("prefix", STRING), oe("configMapRef", ptr(envSource)), oe("secretRef", ptr(envSource)));
