import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ManagedProcess } from "../process/managed-process.js";
import { startComponent, type StartComponentOptions } from "./component.js";
import { schedulerArgs, schedulerConfig } from "./flags.js";

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

/**
 * Starts kube-scheduler against the control plane's API server, as `system:kube-scheduler` with a
 * fresh client certificate, on a free loopback port, and waits until its `/readyz` answers ok
 * (informers synced, event handlers registered), so a pod created next is scheduled.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with its log tail when it exits or is not ready by the deadline.
 * @internal
 */
export function startScheduler(options: StartComponentOptions): Promise<ManagedProcess> {
  return startComponent(
    {
      name: "kube-scheduler",
      folder: "scheduler",
      user: SCHEDULER_USER,
      readyPath: "/readyz",
      args: async (files) => {
        const config = join(files.home, "config.yaml");
        await writeFile(config, schedulerConfig(files.kubeconfig));
        return schedulerArgs({ config, kubeconfig: files.kubeconfig, certDir: files.certDir, port: files.port });
      },
    },
    options,
  );
}
