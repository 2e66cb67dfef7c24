import { join } from "node:path";
import type { ControlPlaneCredentials } from "./credentials.js";

/** Loopback ports one control plane listens on. */
export interface ControlPlanePorts {
  /** etcd client port. */
  etcdClient: number;
  /** etcd peer port. */
  etcdPeer: number;
  /** kube-apiserver secure port. */
  apiserver: number;
}

/** Arguments of `etcd`: one member on loopback, data in `dir/etcd`, no fsync (tests only). @internal */
export function etcdArgs(dir: string, ports: ControlPlanePorts, extra: readonly string[] = []): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return [
    "--name=cocoon-test",
    `--data-dir=${join(dir, "etcd")}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=cocoon-test=${peer}`,
    "--unsafe-no-fsync=true",
    ...extra,
  ];
}

/** Arguments of `kube-apiserver`: RBAC, token and client-certificate users, self-signed serving cert in `dir/certs`. @internal */
export function apiserverArgs(
  dir: string,
  ports: ControlPlanePorts,
  credentials: ControlPlaneCredentials,
  extra: readonly string[] = [],
): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
    `--cert-dir=${join(dir, "certs")}`,
    `--secure-port=${ports.apiserver}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    "--service-cluster-ip-range=10.0.0.0/24",
    "--allow-privileged=true",
    "--authorization-mode=RBAC",
    `--token-auth-file=${credentials.tokenFile}`,
    `--client-ca-file=${credentials.clientCAFile}`,
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    `--service-account-key-file=${credentials.serviceAccountKeyFile}`,
    `--service-account-signing-key-file=${credentials.serviceAccountKeyFile}`,
    "--disable-admission-plugins=ServiceAccount",
    ...extra,
  ];
}
