import { rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { installCRDs } from "../../k8s/install-crds.js";
import { ensureControllerManagerBinary, ensureControlPlaneBinaries, ensureSchedulerBinary } from "../binaries/binaries.js";
import { kubernetesVersionOf } from "../binaries/versions.js";
import { connectToControlPlane, type ControlPlaneClient } from "./connection.js";
import type { ControlPlane, StartControlPlaneOptions } from "./control-plane-options.js";
import { writeCredentials } from "./credentials.js";
import { onParentExit } from "../process/exit-cleanup.js";
import { apiserverArgs, etcdArgs } from "./flags.js";
import { AUDIT_POLICY, auditArgs, auditFiles, readAuditLog } from "./audit-log.js";
import { freePort } from "../process/free-port.js";
import { startProcess, type ManagedProcess } from "../process/managed-process.js";
import { waitReady } from "./readiness.js";
import { startControllerManager } from "./controller-manager.js";
import { startScheduler } from "./scheduler.js";

export type { ControlPlane, StartControlPlaneOptions } from "./control-plane-options.js";

/**
 * Starts a throwaway Kubernetes control plane (etcd + kube-apiserver) on free loopback ports.
 *
 * RBAC is on; the admin ({@link ControlPlane.kubeConfig}) is in `system:masters`, and
 * {@link ControlPlane.kubeConfigFor} returns a client-certificate identity for any user and groups.
 * With `scheduler: true` a kube-scheduler of the same release runs too, as `system:kube-scheduler`
 * (a fresh client certificate in a kubeconfig file), without leader election, on a free loopback
 * port; the start returns once its `/readyz` answers ok. With `controllerManager: true`
 * kube-controller-manager runs too (node lifecycle and garbage collector controllers), as
 * `system:kube-controller-manager`, the same way.
 * Everything lives in a temp folder that {@link ControlPlane.stop} removes; processes and files are
 * also cleaned up when the calling process exits or gets SIGINT/SIGTERM.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with the failing process's last 40 log lines.
 *
 * It is `AsyncDisposable`: `await using plane = await startControlPlane()` stops it when the block ends.
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
 * @example
 * ```ts
 * // With kube-scheduler: a pod without spec.nodeName is placed on a registered node, as in a cluster.
 * await using plane = await startControlPlane({ scheduler: true });
 * await registerNode(plane, { name: "cocoon-1" });
 * ```
 */
export async function startControlPlane(options: StartControlPlaneOptions = {}): Promise<ControlPlane> {
  const { signal } = options;
  const binaries = await binariesFor(options);
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
    const audit = options.auditLog ? auditFiles(dir) : undefined;
    if (audit) await writeFile(audit.policy, AUDIT_POLICY);
    const apiserverFlags = [...(audit ? auditArgs(audit) : []), ...(options.extraApiServerFlags ?? [])];
    processes.push(startProcess("etcd", binaries.etcd, etcdArgs(dir, ports, options.extraEtcdFlags), dir));
    const startApiServer = () =>
      startProcess("kube-apiserver", binaries.kubeApiserver, apiserverArgs(dir, ports, credentials, apiserverFlags), dir);
    processes.push(startApiServer());
    const startTimeoutMs = options.startTimeoutMs ?? 60_000;
    const deadline = started + startTimeoutMs;
    const server = `https://127.0.0.1:${ports.apiserver}`;
    const apiserverProbe = {
      name: "kube-apiserver",
      server,
      certFile: join(dir, "certs", "apiserver.crt"),
      token: credentials.adminToken,
      // The default namespace appears shortly after /readyz; tests expect it.
      paths: ["/readyz", "/api/v1/namespaces/default"],
    };
    const caPem = await waitReady(apiserverProbe, processes, deadline, signal);
    const client = connectToControlPlane({ server, caPem, adminToken: credentials.adminToken, clientCA: credentials.clientCA });
    if (options.installCRDs !== false) await installOurCRDs(client, deadline, signal);
    const component = { dir, client, spawned: (proc: ManagedProcess) => processes.push(proc), processes, deadline, signal };
    const scheduler =
      binaries.kubeScheduler === undefined
        ? undefined
        : await startScheduler({ ...component, binary: binaries.kubeScheduler, extraFlags: options.extraSchedulerFlags });
    const controllerManager =
      binaries.kubeControllerManager === undefined
        ? undefined
        : await startControllerManager({
            ...component,
            binary: binaries.kubeControllerManager,
            extraFlags: options.extraControllerManagerFlags,
          });
    let stopping: Promise<void> | undefined;
    return {
      ...client,
      startupMs: Date.now() - started,
      get pids() {
        const [etcd, apiserver] = processes as [ManagedProcess, ManagedProcess];
        return {
          etcd: etcd.pid,
          kubeApiserver: apiserver.pid,
          ...(scheduler && { kubeScheduler: scheduler.pid }),
          ...(controllerManager && { kubeControllerManager: controllerManager.pid }),
        };
      },
      dir,
      auditEvents: async (auditOptions) => {
        if (!audit) throw new CocoonError("ERR_AUDIT_LOG", "this control plane keeps no audit log: start it with auditLog: true");
        return readAuditLog(audit.log, auditOptions);
      },
      logTail: (lines = 40) => processes.map((p) => `--- ${p.name} ---\n${p.logTail(lines).join("\n")}`).join("\n"),
      restartApiServer: async () => {
        await processes[1]?.stop(grace);
        processes[1] = startApiServer();
        await waitReady(apiserverProbe, processes, Date.now() + startTimeoutMs, undefined);
      },
      stop: () => (stopping ??= shutdown()),
      [Symbol.asyncDispose]: () => (stopping ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

/**
 * The binaries to run: the given ones, else the found ones; with `scheduler` and `controllerManager`,
 * a kube-scheduler and a kube-controller-manager of kube-apiserver's release.
 */
async function binariesFor(
  options: StartControlPlaneOptions,
): Promise<{ etcd: string; kubeApiserver: string; kubeScheduler: string | undefined; kubeControllerManager: string | undefined }> {
  const { log, signal } = options;
  const found = { ...(log && { log }), ...(signal && { signal }) };
  const given: NonNullable<StartControlPlaneOptions["binaries"]> = options.binaries ?? (await ensureControlPlaneBinaries(found));
  const { etcd, kubeApiserver } = given;
  // kube-apiserver reports its release with --version (`Kubernetes v1.35.4`): the components' must match.
  let version: Promise<string> | undefined;
  const kubernetesVersion = (): Promise<string> => (version ??= kubernetesVersionOf(kubeApiserver));
  const kubeScheduler = !options.scheduler
    ? undefined
    : (given.kubeScheduler ?? (await ensureSchedulerBinary({ ...found, kubernetesVersion: await kubernetesVersion() })).kubeScheduler);
  const kubeControllerManager = !options.controllerManager
    ? undefined
    : (given.kubeControllerManager ??
      (await ensureControllerManagerBinary({ ...found, kubernetesVersion: await kubernetesVersion() })).kubeControllerManager);
  return { etcd, kubeApiserver, kubeScheduler, kubeControllerManager };
}

async function installOurCRDs(client: ControlPlaneClient, deadline: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await installCRDs(client.kubeConfig, { timeoutMs: Math.max(deadline - Date.now(), 1000), signal });
  } catch (err) {
    throw new CocoonError("ERR_CONTROL_PLANE", `installing the CRDs failed: ${(err as Error).message}`, { cause: err });
  }
}
