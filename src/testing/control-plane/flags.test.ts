import { describe, expect, it } from "vitest";
import { apiserverArgs, controllerManagerArgs, schedulerArgs, schedulerConfig } from "./flags.js";

const FILES = { config: "/t/scheduler/config.yaml", kubeconfig: "/t/scheduler/kubeconfig", certDir: "/t/scheduler/certs", port: 40123 };

describe("schedulerArgs", () => {
  it("runs one scheduler from its configuration file, without leader election, serving on loopback", () => {
    expect(schedulerArgs(FILES)).toEqual([
      "--config=/t/scheduler/config.yaml",
      "--leader-elect=false",
      "--bind-address=127.0.0.1",
      "--secure-port=40123",
      "--cert-dir=/t/scheduler/certs",
    ]);
  });

  it("appends extra flags last, so they win", () => {
    expect(schedulerArgs(FILES, ["--v=4", "--leader-elect=true"]).slice(-3)).toEqual([
      "--cert-dir=/t/scheduler/certs",
      "--v=4",
      "--leader-elect=true",
    ]);
  });
});

describe("controllerManagerArgs", () => {
  it("runs the node lifecycle controller and the garbage collector, each as its own service account, on loopback", () => {
    const files = { kubeconfig: "/t/cm/kubeconfig", certDir: "/t/cm/certs", port: 40124 };
    expect(controllerManagerArgs(files, ["--node-monitor-period=1s"])).toEqual([
      "--kubeconfig=/t/cm/kubeconfig",
      "--controllers=node-lifecycle-controller,garbage-collector-controller",
      "--use-service-account-credentials=true",
      "--leader-elect=false",
      "--bind-address=127.0.0.1",
      "--secure-port=40124",
      "--cert-dir=/t/cm/certs",
      "--node-monitor-period=1s",
    ]);
  });
});

describe("schedulerConfig", () => {
  it("is a KubeSchedulerConfiguration (JSON, which is YAML) that connects with the kubeconfig and keeps the default profile", () => {
    const text = schedulerConfig("/t/scheduler/kubeconfig");
    expect(JSON.parse(text)).toEqual({
      apiVersion: "kubescheduler.config.k8s.io/v1",
      kind: "KubeSchedulerConfiguration",
      clientConnection: { kubeconfig: "/t/scheduler/kubeconfig" },
    });
    expect(text.endsWith("}\n")).toBe(true);
  });
});

describe("apiserverArgs", () => {
  const credentials = { tokenFile: "/t", clientCAFile: "/ca", serviceAccountKeyFile: "/sa" } as Parameters<typeof apiserverArgs>[2];
  const ports = { etcdClient: 1, etcdPeer: 2, apiserver: 3 };

  it("ends open watches on SIGTERM, so that stop() never waits on a client's watch", () => {
    expect(apiserverArgs("/d", ports, credentials)).toContain("--shutdown-watch-termination-grace-period=500ms");
  });

  it("authorizes as a cluster does: the Node authorizer, then RBAC", () => {
    expect(apiserverArgs("/d", ports, credentials).filter((flag) => flag.startsWith("--authorization-mode="))).toEqual([
      "--authorization-mode=Node,RBAC",
    ]);
  });

  it("appends extra flags last, so they win", () => {
    expect(apiserverArgs("/d", ports, credentials, ["--shutdown-watch-termination-grace-period=5s"]).at(-1)).toBe(
      "--shutdown-watch-termination-grace-period=5s",
    );
  });
});
