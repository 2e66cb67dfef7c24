import type { ManagedProcess } from "../process/managed-process.js";
import { startComponent, type StartComponentOptions } from "./component.js";
import { controllerManagerArgs } from "./flags.js";

/**
 * The user kube-controller-manager authenticates as (`startControlPlane({ controllerManager: true })`);
 * bootstrap RBAC lets it create the service account each controller then runs as.
 *
 * @example
 * ```ts
 * const manager = plane.kubeConfigFor(CONTROLLER_MANAGER_USER); // act as kube-controller-manager, e.g. to check its RBAC
 * ```
 */
export const CONTROLLER_MANAGER_USER = "system:kube-controller-manager";

/**
 * Starts kube-controller-manager (the node lifecycle controller and the garbage collector) against
 * the control plane's API server, as `system:kube-controller-manager` with a fresh client
 * certificate, on a free loopback port, and waits until its `/healthz` answers ok.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with its log tail when it exits or is not ready by the deadline.
 * @internal
 */
export function startControllerManager(options: StartComponentOptions): Promise<ManagedProcess> {
  return startComponent(
    {
      name: "kube-controller-manager",
      folder: "controller-manager",
      user: CONTROLLER_MANAGER_USER,
      readyPath: "/healthz",
      args: (files) => Promise.resolve(controllerManagerArgs(files)),
    },
    options,
  );
}
