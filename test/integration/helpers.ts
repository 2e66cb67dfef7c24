/**
 * Helpers for integration tests: clients for the control plane that `test/global-setup.ts` started.
 *
 * @module
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { randomBytes } from "node:crypto";
import { expect, inject } from "vitest";
import { isCocoonError } from "../../src/errors.js";
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

/**
 * Asserts that `start` (a `startControlPlane` call) failed with `ERR_CONTROL_PLANE` because `name`
 * exited on the unknown `flag`, the message quoting that process's log.
 */
export async function expectExitOnUnknownFlag(start: Promise<unknown>, name: string, flag: string): Promise<void> {
  const err = await start.catch((e: unknown) => e);
  expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
  const message = (err as Error).message;
  const head = `test control plane failed to start: ${name} exited (exit status 1) during start\nlast ${name} log lines:\n`;
  expect(message.slice(0, head.length)).toBe(head);
  expect(message).toContain(`unknown flag: ${flag}`);
}
