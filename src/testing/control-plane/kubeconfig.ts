import { KubeConfig } from "@kubernetes/client-node";

/** Credentials of one kubeconfig user: a bearer token or a client certificate. */
export type KubeconfigCredentials = { token: string } | { certPem: string; keyPem: string };

/** Everything one single-context kubeconfig holds. */
export interface KubeconfigSpec {
  /** API server URL. */
  server: string;
  /** PEM bundle that verifies the server's certificate. */
  caPem: string;
  /** User name (also the context name's suffix). */
  user: string;
  /** How the user authenticates. */
  credentials: KubeconfigCredentials;
}

const CLUSTER = "cocoon-test";
const b64 = (text: string): string => Buffer.from(text).toString("base64");

/**
 * Renders a one-context kubeconfig document (YAML) for `spec`, readable by kubectl and client-node.
 *
 * @internal
 */
export function renderKubeconfig(spec: KubeconfigSpec): string {
  const q = (value: string): string => JSON.stringify(value);
  const context = `${spec.user}@${CLUSTER}`;
  const user =
    "token" in spec.credentials
      ? [`    token: ${q(spec.credentials.token)}`]
      : [`    client-certificate-data: ${b64(spec.credentials.certPem)}`, `    client-key-data: ${b64(spec.credentials.keyPem)}`];
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${CLUSTER}`,
    "  cluster:",
    `    server: ${q(spec.server)}`,
    `    certificate-authority-data: ${b64(spec.caPem)}`,
    "users:",
    `- name: ${q(spec.user)}`,
    "  user:",
    ...user,
    "contexts:",
    `- name: ${q(context)}`,
    "  context:",
    `    cluster: ${CLUSTER}`,
    `    user: ${q(spec.user)}`,
    "    namespace: default",
    `current-context: ${q(context)}`,
    "",
  ].join("\n");
}

/**
 * Builds a client-node `KubeConfig` from `spec` (verifying the server with `spec.caPem`).
 *
 * @internal
 */
export function buildKubeConfig(spec: KubeconfigSpec): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(renderKubeconfig(spec));
  return kubeConfig;
}
