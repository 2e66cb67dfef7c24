/**
 * `await using` on `./testing`'s servers: `ControlPlane` and `TestRegistry` are `AsyncDisposable`,
 * so leaving the block (normally or by a throw) stops the processes and removes their folders.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries } from "./helpers.js";
import { startTestRegistry } from "./registry-helpers.js";

/** A process is gone once its `/proc` entry is (stop() awaits the exit, so it is reaped). */
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

describe("await using", () => {
  it("stops the control plane at the end of the block", async () => {
    let seen: { pids: number[]; dir: string; namespaces: number } | undefined;
    {
      await using plane = await startControlPlane({ binaries: controlPlaneBinaries(), installCRDs: false });
      const { items } = await plane.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
      seen = { pids: [plane.pids.etcd, plane.pids.kubeApiserver], dir: plane.dir, namespaces: items.length };
      expect([...seen.pids.map(alive), existsSync(seen.dir)]).toEqual([true, true, true]);
    }
    expect(seen.namespaces).toBeGreaterThan(0);
    expect([...seen.pids.map(alive), existsSync(seen.dir)]).toEqual([false, false, false]);
  });

  it("stops the registry when the block throws, and the error still propagates", async () => {
    let seen: { pid: number; dir: string } | undefined;
    const failure = new Error("the test body failed");
    await expect(
      (async () => {
        await using registry = await startTestRegistry();
        seen = { pid: registry.pid, dir: registry.dir };
        expect([alive(seen.pid), existsSync(seen.dir)]).toEqual([true, true]);
        throw failure;
      })(),
    ).rejects.toBe(failure);
    expect(seen && [alive(seen.pid), existsSync(seen.dir)]).toEqual([false, false]);
  });
});
