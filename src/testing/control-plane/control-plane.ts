import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { installCRDs } from "../../k8s/install-crds.js";
import { ensureControlPlaneBinaries, type ControlPlaneBinaries } from "../binaries/control-plane-binaries.js";
import type { ProgressLog } from "../binaries/build-progress.js";
import { connectToControlPlane, type ControlPlaneClient } from "./connection.js";
import { writeCredentials } from "./credentials.js";
import { onParentExit } from "../process/exit-cleanup.js";
import { apiserverArgs, etcdArgs } from "./flags.js";
import { freePort } from "../process/free-port.js";
import { startProcess, type ManagedProcess } from "../process/managed-process.js";
import { waitReady } from "./readiness.js";

/** Options of {@link startControlPlane}. */
export interface StartControlPlaneOptions {
  /** Binaries to run; default {@link ensureControlPlaneBinaries} (which may build them). */
  binaries?: Pick<ControlPlaneBinaries, "etcd" | "kubeApiserver">;
  /** Install the CocoonSet and CocoonHibernation CRDs and wait until Established; default `true`. */
  installCRDs?: boolean;
  /** Flags appended to kube-apiserver's (later flags win). */
  extraApiServerFlags?: readonly string[];
  /** Flags appended to etcd's. */
  extraEtcdFlags?: readonly string[];
  /** Deadline for `/readyz` (and CRDs), from spawning; default 60 s. */
  startTimeoutMs?: number;
  /** Grace after SIGTERM before SIGKILL, per process, in {@link ControlPlane.stop}; default 10 s. */
  stopTimeoutMs?: number;
  /** Build progress lines (see {@link ensureControlPlaneBinaries}). */
  log?: ProgressLog;
  /** Aborts the start (processes are stopped, files removed). */
  signal?: AbortSignal;
}

/** A running etcd + kube-apiserver pair; see {@link startControlPlane}. */
export interface ControlPlane extends ControlPlaneClient {
  /** Milliseconds from spawning the processes to ready (API answering, CRDs established). */
  readonly startupMs: number;
  /** Process ids, e.g. to check that {@link ControlPlane.stop} left nothing behind. */
  readonly pids: { readonly etcd: number; readonly kubeApiserver: number };
  /** Temporary folder with data, certificates and credentials; removed by {@link ControlPlane.stop}. */
  readonly dir: string;
  /** The last `lines` log lines of each process, under a `--- name ---` heading. */
  logTail(lines?: number): string;
  /** Stops kube-apiserver then etcd (SIGTERM, SIGKILL after the grace time) and removes {@link ControlPlane.dir}; idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a throwaway Kubernetes control plane (etcd + kube-apiserver) on free loopback ports.
 *
 * RBAC is on; the admin ({@link ControlPlane.kubeConfig}) is in `system:masters`, and
 * {@link ControlPlane.kubeConfigFor} returns a client-certificate identity for any user and groups.
 * Everything lives in a temp folder that {@link ControlPlane.stop} removes; processes and files are
 * also cleaned up when the calling process exits or gets SIGINT/SIGTERM.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with the failing process's last 40 log lines.
 *
 * @example
 * ```ts
 * const plane = await startControlPlane();
 * try {
 *   const core = plane.kubeConfig.makeApiClient(CoreV1Api);
 *   await core.createNamespace({ body: { metadata: { name: "demo" } } });
 * } finally {
 *   await plane.stop();
 * }
 * ```
 */
export async function startControlPlane(options: StartControlPlaneOptions = {}): Promise<ControlPlane> {
  const { log, signal } = options;
  const binaries = options.binaries ?? (await ensureControlPlaneBinaries({ ...(log && { log }), ...(signal && { signal }) }));
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "cocoon-controlplane-"));
  const processes: ManagedProcess[] = [];
  const unregister = onParentExit(() => {
    for (const proc of processes) proc.killNow();
    rmSync(dir, { recursive: true, force: true });
  });
  const grace = options.stopTimeoutMs ?? 10_000;
  const shutdown = async (): Promise<void> => {
    for (const proc of [...processes].reverse()) await proc.stop(grace);
    await rm(dir, { recursive: true, force: true });
    unregister();
  };
  try {
    const [credentials, etcdClient, etcdPeer, apiserverPort] = await Promise.all([
      writeCredentials(dir),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const ports = { etcdClient, etcdPeer, apiserver: apiserverPort };
    processes.push(startProcess("etcd", binaries.etcd, etcdArgs(dir, ports, options.extraEtcdFlags), dir));
    processes.push(
      startProcess("kube-apiserver", binaries.kubeApiserver, apiserverArgs(dir, ports, credentials, options.extraApiServerFlags), dir),
    );
    const deadline = started + (options.startTimeoutMs ?? 60_000);
    const server = `https://127.0.0.1:${ports.apiserver}`;
    const caPem = await waitReady(server, join(dir, "certs", "apiserver.crt"), credentials.adminToken, processes, deadline, signal);
    const client = connectToControlPlane({ server, caPem, adminToken: credentials.adminToken, clientCA: credentials.clientCA });
    if (options.installCRDs !== false) await installOurCRDs(client, deadline, signal);
    const [etcd, apiserver] = processes as [ManagedProcess, ManagedProcess];
    let stopping: Promise<void> | undefined;
    return {
      ...client,
      startupMs: Date.now() - started,
      pids: { etcd: etcd.pid, kubeApiserver: apiserver.pid },
      dir,
      logTail: (lines = 40) => processes.map((p) => `--- ${p.name} ---\n${p.logTail(lines).join("\n")}`).join("\n"),
      stop: () => (stopping ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

async function installOurCRDs(client: ControlPlaneClient, deadline: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await installCRDs(client.kubeConfig, { timeoutMs: Math.max(deadline - Date.now(), 1000), signal });
  } catch (err) {
    throw new CocoonError("ERR_CONTROL_PLANE", `installing the CRDs failed: ${(err as Error).message}`, { cause: err });
  }
}
