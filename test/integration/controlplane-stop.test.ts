import { describe, expect, it } from "vitest";
import { createClients, watchCocoonPods } from "../../src/k8s/index.js";
import { Label } from "../../src/meta/index.js";
import { startControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries } from "./helpers.js";

// Issue 34, item 6: stop() within 2 s while a client holds a watch open. Without
// --shutdown-watch-termination-grace-period, kube-apiserver's HTTP server waits on the open
// watch, and stop() took its whole grace (10 s) before it killed the process.
describe("ControlPlane.stop() with an open watch", () => {
  it("resolves within 2 s while a typed watch of pods is open", async () => {
    const plane = await startControlPlane({ binaries: controlPlaneBinaries(), installCRDs: false });
    const clients = createClients(plane.kubeConfig);
    const watching = new AbortController();
    const events = watchCocoonPods(clients, { namespace: "default", signal: watching.signal })[Symbol.asyncIterator]();
    let stopMs: number;
    try {
      for (let next = await events.next(); !next.done && next.value.type !== "synced"; next = await events.next());
      // A change the watch delivers proves its request is open on the server.
      const body = {
        metadata: { name: "watched", labels: { [Label.CocoonSet]: "demo" } },
        spec: { containers: [{ name: "c", image: "busybox" }] },
      };
      await clients.core.createNamespacedPod({ namespace: "default", body });
      await events.next(); // the pod's event (`invalid`: it is no cocoon pod), or the end
      events.next().catch(() => undefined); // waiting on the open watch while the plane stops
      const started = performance.now();
      await plane.stop();
      stopMs = performance.now() - started;
    } finally {
      watching.abort();
      clients.close();
      await plane.stop();
    }
    expect(stopMs, `stop() took ${Math.round(stopMs)} ms`).toBeLessThan(2_000);
  }, 60_000);
});
