import type { KubeConfig } from "@kubernetes/client-node";
import { ADMIN_USER } from "./credentials.js";
import { buildKubeConfig, renderKubeconfig } from "./kubeconfig.js";
import { serviceAccountToken, serviceAccountUser, type ServiceAccountKubeConfigOptions } from "./service-account.js";
import { issueClientCertificate, type CertificateAndKey } from "./x509.js";

/**
 * What another process needs to use a running control plane: plain JSON, safe to pass through
 * vitest's `provide`/`inject`, an environment variable or a file.
 *
 * Holds throwaway secrets (admin token, client CA key) that are valid only for that control plane.
 */
export interface ControlPlaneConnection {
  /** `https://127.0.0.1:<port>`. */
  server: string;
  /** PEM bundle of the server's self-signed certificate (what clients trust). */
  caPem: string;
  /** Bearer token of the admin user (group `system:masters`). */
  adminToken: string;
  /** CA the server accepts client certificates from; {@link ControlPlaneClient.kubeConfigFor} signs with it. */
  clientCA: CertificateAndKey;
}

/** Clients for a running control plane; see {@link connectToControlPlane}. */
export interface ControlPlaneClient {
  /** API server URL. */
  readonly server: string;
  /** `KubeConfig` of the admin (`system:masters`, not subject to RBAC). */
  readonly kubeConfig: KubeConfig;
  /** The connection this client was made from (pass it to other processes). */
  readonly connection: ControlPlaneConnection;
  /**
   * Returns a `KubeConfig` for `user` in `groups`, authenticated by a fresh client certificate
   * (subject CN = user, O = groups). Any name works, at any time; RBAC applies as usual
   * (every user also gets `system:authenticated`).
   */
  kubeConfigFor(user: string, groups?: readonly string[]): KubeConfig;
  /**
   * Returns a `KubeConfig` of the service account `namespace/name` (user
   * `system:serviceaccount:<namespace>:<name>`), authenticated by a bearer token from the
   * TokenRequest API; the service account is created first unless it exists (the namespace must).
   * RBAC applies: bind it a role, e.g. `cocoonKubeletClusterRole`, for it to do anything.
   *
   * @example
   * ```ts
   * const kubelet = await plane.kubeConfigForServiceAccount("cocoon-system", "cocoon-kubelet");
   * await kubelet.makeApiClient(CoreV1Api).listNode(); // 403 until a binding grants it
   * ```
   */
  kubeConfigForServiceAccount(namespace: string, name: string, options?: ServiceAccountKubeConfigOptions): Promise<KubeConfig>;
  /** Kubeconfig YAML of the admin, or of `user` in `groups`, for kubectl or other processes. */
  kubeconfigYaml(user?: string, groups?: readonly string[]): string;
}

/**
 * Makes clients for the control plane described by `connection`, e.g. one started in vitest's `globalSetup`.
 *
 * @example
 * ```ts
 * const plane = connectToControlPlane(inject("controlPlane"));
 * const core = plane.kubeConfigFor("alice", ["dev"]).makeApiClient(CoreV1Api);
 * ```
 */
export function connectToControlPlane(connection: ControlPlaneConnection): ControlPlaneClient {
  const { server, caPem } = connection;
  const specFor = (user?: string, groups: readonly string[] = []) =>
    user === undefined
      ? { server, caPem, user: ADMIN_USER, credentials: { token: connection.adminToken } }
      : { server, caPem, user, credentials: issueClientCertificate(connection.clientCA, user, groups) };
  const kubeConfig = buildKubeConfig(specFor());
  return {
    server,
    connection,
    kubeConfig,
    kubeConfigFor: (user, groups) => buildKubeConfig(specFor(user, groups)),
    kubeConfigForServiceAccount: async (namespace, name, options) => {
      const token = await serviceAccountToken(kubeConfig, namespace, name, options);
      return buildKubeConfig({ server, caPem, user: serviceAccountUser(namespace, name), credentials: { token } });
    },
    kubeconfigYaml: (user, groups) => renderKubeconfig(specFor(user, groups)),
  };
}
