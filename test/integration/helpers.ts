/**
 * Helpers for integration tests: clients for the control plane that `test/global-setup.ts` started.
 *
 * @module
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { connectToControlPlane, type ControlPlaneClient } from "../../src/testing/index.js";

let shared: ControlPlaneClient | undefined;

/** Returns clients for the suite's shared control plane (admin `kubeConfig`, `kubeConfigFor(user, groups)`). */
export function getControlPlane(): ControlPlaneClient {
  shared ??= connectToControlPlane(inject("controlPlane"));
  return shared;
}

/** Returns the admin `KubeConfig` (group `system:masters`) of the shared control plane. */
export function adminKubeConfig(): KubeConfig {
  return getControlPlane().kubeConfig;
}

/** Returns a `KubeConfig` for `user` in `groups` (a client certificate; RBAC applies). */
export function userKubeConfig(user: string, groups: readonly string[] = []): KubeConfig {
  return getControlPlane().kubeConfigFor(user, groups);
}

/** Paths of the etcd and kube-apiserver binaries, for tests that start a control plane of their own. */
export function controlPlaneBinaries(): { etcd: string; kubeApiserver: string } {
  return inject("controlPlaneBinaries");
}

/**
 * Creates a namespace named `<prefix>-<random>` on the shared control plane and returns its name,
 * so test files running against the same server never collide.
 */
export async function createTestNamespace(prefix = "test"): Promise<string> {
  const name = `${prefix}-${randomBytes(4).toString("hex")}`;
  await adminKubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name } } });
  return name;
}
