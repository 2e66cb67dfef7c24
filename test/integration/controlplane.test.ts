import { ApiextensionsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api, VersionApi } from "@kubernetes/client-node";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GROUP } from "../../src/apis/v1/index.js";
import { isCocoonError } from "../../src/errors.js";
import {
  kubernetesVersionFrom,
  resourceRequestOf,
  serviceAccountUser,
  startControlPlane,
  type ControlPlane,
} from "../../src/testing/index.js";
import {
  adminKubeConfig,
  controlPlaneBinaries,
  createTestNamespace,
  expectExitOnUnknownFlag,
  getControlPlane,
  userKubeConfig,
} from "./helpers.js";

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const statusOf = (err: unknown): number | undefined => (err as { code?: number }).code;

async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const planeDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith("cocoon-controlplane-"));

function expectGone(plane: ControlPlane): void {
  expect(isAlive(plane.pids.kubeApiserver)).toBe(false);
  expect(isAlive(plane.pids.etcd)).toBe(false);
  expect(existsSync(plane.dir)).toBe(false);
}

describe("shared control plane (globalSetup)", () => {
  it("reports the pinned Kubernetes version on /version (v1.35.4, or the release COCOON_KUBERNETES_VERSION names)", async () => {
    const version = await adminKubeConfig().makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe(kubernetesVersionFrom());
  });

  it("has our CRDs installed and established", async () => {
    const crds = await adminKubeConfig().makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    const ours = crds.items.filter((crd) => crd.spec.group === GROUP);
    expect(ours.map((crd) => crd.metadata?.name).sort()).toEqual([`cocoonhibernations.${GROUP}`, `cocoonsets.${GROUP}`]);
    for (const crd of ours) {
      expect(crd.status?.conditions?.find((c) => c.type === "Established")?.status).toBe("True");
    }
  });

  it("lets the admin create a namespace", async () => {
    const name = await createTestNamespace("cp-admin");
    const read = await adminKubeConfig().makeApiClient(CoreV1Api).readNamespace({ name });
    expect(read.metadata?.name).toBe(name);
    expect(read.status?.phase).toBe("Active");
  });

  it("answers 403 to a user without RBAC rights, and 200 once a binding grants them to its group", async () => {
    const group = `grp-${Date.now()}`;
    const core = userKubeConfig("cp-nobody", [group]).makeApiClient(CoreV1Api);
    const denied = await core.listNamespace().catch((err: unknown) => err);
    expect(statusOf(denied)).toBe(403);
    expect(String((denied as { body?: unknown }).body)).toContain('User \\"cp-nobody\\" cannot list resource \\"namespaces\\"');

    await adminKubeConfig()
      .makeApiClient(RbacAuthorizationV1Api)
      .createClusterRoleBinding({
        body: {
          metadata: { name: `list-namespaces-${group}` },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
          subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: group }],
        },
      });
    const allowed = await eventually(() => core.listNamespace());
    expect(allowed.items.map((ns) => ns.metadata?.name)).toContain("default");
  });

  it("gives a service account's kubeconfig (a TokenRequest token): 403 until a binding grants it, then allowed", async () => {
    const namespace = await createTestNamespace("sa");
    const plane = getControlPlane();
    const core = (await plane.kubeConfigForServiceAccount(namespace, "kubelet")).makeApiClient(CoreV1Api);
    const denied = await core.listNamespacedPod({ namespace }).catch((err: unknown) => err);
    expect(statusOf(denied)).toBe(403);
    expect(String((denied as { body?: unknown }).body)).toContain(`User \\"${serviceAccountUser(namespace, "kubelet")}\\" cannot list`);
    // A Role of its own: the aggregated ClusterRoles (view, edit) stay empty without kube-controller-manager.
    const rbac = adminKubeConfig().makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace,
      body: { metadata: { name: "pod-reader" }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: "kubelet-pod-reader" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
        subjects: [{ kind: "ServiceAccount", name: "kubelet", namespace }],
      },
    });
    await eventually(() => core.listNamespacedPod({ namespace }));
    // The service account exists now: a second kubeconfig reuses it.
    const again = (await plane.kubeConfigForServiceAccount(namespace, "kubelet")).makeApiClient(CoreV1Api);
    expect((await again.listNamespacedPod({ namespace })).items).toEqual([]);
  });

  it("gives a kubeconfig YAML that another client can load", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(getControlPlane().kubeconfigYaml());
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBe(false);
    const ns = await kc.makeApiClient(CoreV1Api).readNamespace({ name: "default" });
    expect(ns.metadata?.name).toBe("default");
  });
});

describe("startControlPlane", () => {
  it("with auditLog, auditEvents() reads what each user asked and the authorizer's verdict; without, ERR_AUDIT_LOG", async () => {
    const binaries = controlPlaneBinaries();
    await using plane = await startControlPlane({ binaries, auditLog: true, installCRDs: false });
    const denied = await plane
      .kubeConfigFor("cp-auditee")
      .makeApiClient(CoreV1Api)
      .listNamespacedPod({ namespace: "default" })
      .catch((err: unknown) => err);
    expect(statusOf(denied)).toBe(403);
    const events = (await plane.auditEvents()).filter((e) => e.user.username === "cp-auditee");
    expect(events.map((e) => [resourceRequestOf(e), e.responseStatus?.code, e.annotations?.["authorization.k8s.io/decision"]])).toEqual([
      [{ apiGroup: "", resource: "pods", subresource: "", verb: "list", name: "", namespace: "default" }, 403, "forbid"],
    ]);
    await expect(plane.auditEvents({ maxBytes: 1 })).rejects.toMatchObject({ code: "ERR_AUDIT_LOG" });

    await using quiet = await startControlPlane({ binaries, installCRDs: false });
    await expect(quiet.auditEvents()).rejects.toMatchObject({ code: "ERR_AUDIT_LOG" });
  });

  it("starts two control planes in parallel on separate ports, and stop() leaves no process or folder", async () => {
    const binaries = controlPlaneBinaries();
    const planes = await Promise.all([startControlPlane({ binaries }), startControlPlane({ binaries, installCRDs: false })]);
    try {
      expect(planes[0].server).not.toBe(planes[1].server);
      for (const plane of planes) {
        expect(plane.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect(plane.startupMs).toBeGreaterThan(0);
        const namespaces = await plane.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
        expect(namespaces.items.map((ns) => ns.metadata?.name)).toContain("kube-system");
      }
      const crds = await planes[1].kubeConfig.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
      expect(crds.items).toEqual([]); // installCRDs: false
      expect(planes[0].logTail(5)).toMatch(/^--- etcd ---\n[^]*\n--- kube-apiserver ---\n/);
    } finally {
      await Promise.all(planes.map((plane) => plane.stop()));
    }
    for (const plane of planes) expectGone(plane);
    await planes[0].stop(); // idempotent
  });

  it("fails with ERR_CONTROL_PLANE and the server's log tail when kube-apiserver cannot start", async () => {
    const before = planeDirs();
    const start = startControlPlane({ binaries: controlPlaneBinaries(), installCRDs: false, extraApiServerFlags: ["--no-such-flag=1"] });
    await expectExitOnUnknownFlag(start, "kube-apiserver", "--no-such-flag");
    expect(planeDirs()).toEqual(before);
  });

  it("fails with ERR_CONTROL_PLANE, the last /readyz answer and the log tail when the deadline passes", async () => {
    const before = planeDirs();
    const err = await startControlPlane({ binaries: controlPlaneBinaries(), installCRDs: false, startTimeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toMatch(
      /^test control plane failed to start: kube-apiserver not ready in time; last \/readyz: [^]*\nlast kube-apiserver log lines:\n/,
    );
    expect(planeDirs()).toEqual(before);
  });

  it("cleans up when the process that started it is interrupted", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("./fixtures/control-plane-child.ts", import.meta.url))],
      {
        env: {
          ...process.env,
          TEST_ASSET_ETCD: controlPlaneBinaries().etcd,
          TEST_ASSET_KUBE_APISERVER: controlPlaneBinaries().kubeApiserver,
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const [line] = (await once(child.stdout.setEncoding("utf8"), "data")) as [string];
    const started = JSON.parse(line) as { pids: { etcd: number; kubeApiserver: number }; dir: string };
    expect(isAlive(started.pids.kubeApiserver)).toBe(true);
    child.kill("SIGINT");
    const [, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe("SIGINT");
    await eventually(async () => expect([isAlive(started.pids.kubeApiserver), isAlive(started.pids.etcd)]).toEqual([false, false]), 5000);
    expect(existsSync(started.dir)).toBe(false);
  });

  it("starts in a few seconds (median of 3 sequential starts, CRDs included)", async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const plane = await startControlPlane({ binaries: controlPlaneBinaries() });
      times.push(plane.startupMs);
      await plane.stop();
      expectGone(plane);
    }
    const median = [...times].sort((a, b) => a - b)[1] ?? 0;
    console.info(`[controlplane] start times ${times.join(", ")} ms; median ${median} ms`);
    expect(median).toBeLessThan(20_000);
  });
});
