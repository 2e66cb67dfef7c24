import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { isAlreadyExists } from "../../k8s/api-errors.js";
import { CocoonError } from "../../errors.js";

/** Options of `ControlPlaneClient.kubeConfigForServiceAccount`. */
export interface ServiceAccountKubeConfigOptions {
  /** Lifetime of the token; default 3600 s (the API server's minimum is 600 s). */
  expirationSeconds?: number;
}

/**
 * The user name the API server gives the service account `namespace/name`, as audit events and
 * SubjectAccessReviews name it.
 *
 * @example
 * ```ts
 * serviceAccountUser("cocoon-system", "cocoon-kubelet"); // => "system:serviceaccount:cocoon-system:cocoon-kubelet"
 * ```
 */
export const serviceAccountUser = (namespace: string, name: string): string => `system:serviceaccount:${namespace}:${name}`;

/**
 * Creates the service account `namespace/name` unless it exists, and asks the API server for a
 * token of it (TokenRequest, the `serviceaccounts/token` subresource), as the admin `admin`.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when the answer holds no token; the API's errors pass through.
 * @internal
 */
export async function serviceAccountToken(
  admin: KubeConfig,
  namespace: string,
  name: string,
  options: ServiceAccountKubeConfigOptions = {},
): Promise<string> {
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } }).catch((err: unknown) => {
    if (!isAlreadyExists(err)) throw err;
  });
  const expirationSeconds = options.expirationSeconds ?? 3600;
  const answer = await core.createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds } } });
  const token = answer.status?.token;
  if (!token) throw new CocoonError("ERR_CONTROL_PLANE", `the TokenRequest for service account ${namespace}/${name} returned no token`);
  return token;
}
