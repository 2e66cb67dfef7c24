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

/**
 * Arguments of `kube-apiserver`: the Node and RBAC authorizers (as a cluster runs them), token and
 * client-certificate users, service-account tokens, self-signed serving cert in `dir/certs`.
 * @internal
 */
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
    // 1.37 refuses a loopback advertise address for the lease endpoint reconciler (kubernetes/kubernetes#138102); with
    // none, the `kubernetes` Service gets no endpoints, which nothing here reads.
    "--endpoint-reconciler-type=none",
    "--service-cluster-ip-range=10.0.0.0/24",
    "--allow-privileged=true",
    "--authorization-mode=Node,RBAC",
    `--token-auth-file=${credentials.tokenFile}`,
    `--client-ca-file=${credentials.clientCAFile}`,
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    `--service-account-key-file=${credentials.serviceAccountKeyFile}`,
    `--service-account-signing-key-file=${credentials.serviceAccountKeyFile}`,
    "--disable-admission-plugins=ServiceAccount",
    // With the default 0, shutdown does not close open watches, and the HTTP server waits on them
    // until its 60 s timeout: stop() then killed the process after its grace (10 s) whenever a
    // client held a watch. A grace period makes the server end them itself, at once for a few.
    "--shutdown-watch-termination-grace-period=500ms",
    ...extra,
  ];
}

/** Files and port of one kube-scheduler, all under the control plane's folder. @internal */
export interface SchedulerFiles {
  /** `KubeSchedulerConfiguration` (`--config`), naming {@link SchedulerFiles.kubeconfig} as its client connection. */
  config: string;
  /** Kubeconfig of the `system:kube-scheduler` user, named by {@link SchedulerFiles.config}. */
  kubeconfig: string;
  /** Folder where kube-scheduler writes its self-signed serving certificate (`kube-scheduler.crt`). */
  certDir: string;
  /** Loopback secure port of its `/readyz`, `/healthz` and `/metrics`. */
  port: number;
}

/**
 * Arguments of `kube-scheduler`: its configuration file, no leader election (it is the only
 * scheduler), serving on loopback.
 *
 * No `--authentication-kubeconfig`: the API server has no request-header CA for kube-scheduler to
 * load (it would log that every few seconds), and `/readyz`, `/healthz` and `/livez` answer anyone.
 * @internal
 */
export function schedulerArgs(files: SchedulerFiles, extra: readonly string[] = []): string[] {
  return [
    `--config=${files.config}`,
    "--leader-elect=false",
    "--bind-address=127.0.0.1",
    `--secure-port=${files.port}`,
    `--cert-dir=${files.certDir}`,
    ...extra,
  ];
}

/** The `KubeSchedulerConfiguration` of {@link schedulerArgs}: the default profile, connecting with `kubeconfig`. @internal */
export function schedulerConfig(kubeconfig: string): string {
  const config = {
    apiVersion: "kubescheduler.config.k8s.io/v1",
    kind: "KubeSchedulerConfiguration",
    clientConnection: { kubeconfig },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The controllers `startControlPlane({ controllerManager: true })` runs: what a node's lifetime needs
 * (the node lifecycle controller taints and untaints nodes by their Ready condition and Lease; the
 * garbage collector removes a deleted node's Lease, which the Node owns). @internal
 */
export const CONTROLLERS = ["node-lifecycle-controller", "garbage-collector-controller"] as const;

/**
 * Arguments of `kube-controller-manager`: {@link CONTROLLERS} only, each with its own service account
 * (bootstrap RBAC's `system:controller:*` roles, as kubeadm runs it), no leader election, serving on
 * loopback, the node lifecycle timings of the release (`--node-monitor-period=5s`,
 * `--node-monitor-grace-period=50s`) unless `extra` sets them.
 * @internal
 */
export function controllerManagerArgs(files: Omit<SchedulerFiles, "config">, extra: readonly string[] = []): string[] {
  return [
    `--kubeconfig=${files.kubeconfig}`,
    `--controllers=${CONTROLLERS.join(",")}`,
    "--use-service-account-credentials=true",
    "--leader-elect=false",
    "--bind-address=127.0.0.1",
    `--secure-port=${files.port}`,
    `--cert-dir=${files.certDir}`,
    ...extra,
  ];
}
