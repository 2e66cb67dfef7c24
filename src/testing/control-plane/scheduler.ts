import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../process/free-port.js";
import { startProcess, type ManagedProcess } from "../process/managed-process.js";
import type { ControlPlaneClient } from "./connection.js";
import { schedulerArgs, schedulerConfig, type SchedulerFiles } from "./flags.js";
import { waitReady } from "./readiness.js";

/**
 * The user kube-scheduler authenticates as (`startControlPlane({ scheduler: true })`); Kubernetes'
 * bootstrap RBAC grants it what a scheduler needs.
 *
 * @example
 * ```ts
 * const scheduler = plane.kubeConfigFor(SCHEDULER_USER); // act as the scheduler, e.g. to check its RBAC
 * ```
 */
export const SCHEDULER_USER = "system:kube-scheduler";

/** What {@link startScheduler} needs. @internal */
export interface StartSchedulerOptions {
  /** Path of `kube-scheduler`, of the API server's release. */
  binary: string;
  /** The control plane's folder; the scheduler's files go to `dir/scheduler`. */
  dir: string;
  /** The running API server. */
  client: ControlPlaneClient;
  /** Flags appended to kube-scheduler's. */
  extraFlags?: readonly string[] | undefined;
  /** Called with the process as soon as it is spawned, so the caller can stop it whatever happens next. */
  spawned(proc: ManagedProcess): void;
  /** The processes to watch while waiting (a dead one fails the start). */
  processes: readonly ManagedProcess[];
  /** Deadline of `/readyz`. */
  deadline: number;
  /** Aborts the wait. */
  signal?: AbortSignal | undefined;
}

/**
 * Starts kube-scheduler against the control plane's API server, as `system:kube-scheduler` with a
 * fresh client certificate, on a free loopback port, and waits until its `/readyz` answers ok
 * (informers synced, event handlers registered), so a pod created next is scheduled.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with its log tail when it exits or is not ready by the deadline.
 * @internal
 */
export async function startScheduler(options: StartSchedulerOptions): Promise<ManagedProcess> {
  const home = join(options.dir, "scheduler");
  await mkdir(home, { recursive: true });
  const files: SchedulerFiles = {
    config: join(home, "config.yaml"),
    kubeconfig: join(home, "kubeconfig"),
    certDir: join(home, "certs"),
    port: await freePort(),
  };
  await Promise.all([
    writeFile(files.kubeconfig, options.client.kubeconfigYaml(SCHEDULER_USER), { mode: 0o600 }),
    writeFile(files.config, schedulerConfig(files.kubeconfig)),
  ]);
  const proc = startProcess("kube-scheduler", options.binary, schedulerArgs(files, options.extraFlags), home);
  options.spawned(proc);
  const probe = {
    name: "kube-scheduler",
    server: `https://127.0.0.1:${files.port}`,
    certFile: join(files.certDir, "kube-scheduler.crt"),
    paths: ["/readyz"],
  };
  await waitReady(probe, options.processes, options.deadline, options.signal);
  return proc;
}
