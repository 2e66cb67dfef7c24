/**
 * Vitest `globalSetup` of the integration project: starts ONE control plane for the whole run
 * and hands its connection to the test files (`inject("controlPlane")`, see `integration/helpers.ts`).
 *
 * The first run may build etcd and kube-apiserver (several minutes, progress on stderr) and the
 * distribution registry; set `TEST_ASSET_ETCD` / `TEST_ASSET_KUBE_APISERVER` or `KUBEBUILDER_ASSETS`,
 * and `TEST_ASSET_REGISTRY`, to use existing binaries.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { ensureControlPlaneBinaries, ensureRegistryBinary, startControlPlane, type ControlPlaneConnection } from "../src/testing/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection of the shared control plane (see `test/integration/helpers.ts`). */
    controlPlane: ControlPlaneConnection;
    /** Paths of the binaries it runs, for tests that start their own. */
    controlPlaneBinaries: { etcd: string; kubeApiserver: string };
    /** Path of the distribution registry binary, for tests that start a registry (`startRegistry({ binary })`). */
    registryBinary: string;
  }
}

/** Starts the shared control plane and returns its teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // CI's runtime matrix shares one server among its runs (scripts/ci/shared-control-plane.ts).
  const sharedFile = process.env.COCOON_SHARED_CONTROL_PLANE;
  if (sharedFile !== undefined && sharedFile !== "") {
    const shared = JSON.parse(readFileSync(sharedFile, "utf8")) as {
      connection: ControlPlaneConnection;
      binaries: { etcd: string; kubeApiserver: string };
    };
    project.provide("controlPlane", shared.connection);
    project.provide("controlPlaneBinaries", shared.binaries);
    project.provide("registryBinary", (await ensureRegistryBinary()).registry);
    return () => Promise.resolve();
  }
  const binaries = await ensureControlPlaneBinaries();
  const registry = await ensureRegistryBinary();
  const plane = await startControlPlane({ binaries });
  process.stderr.write(
    `[controlplane] shared control plane at ${plane.server} ready in ${plane.startupMs} ms (binaries: ${binaries.source})\n`,
  );
  project.provide("controlPlane", plane.connection);
  project.provide("controlPlaneBinaries", { etcd: binaries.etcd, kubeApiserver: binaries.kubeApiserver });
  project.provide("registryBinary", registry.registry);
  return () => plane.stop();
}
