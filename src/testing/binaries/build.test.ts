import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { kubernetesModule, REGISTRY_MODULE, renderWrapperGoMod, stagingModules, toolsGo, trackGoProgress } from "./build.js";

const KUBERNETES_GO_MOD = `module k8s.io/kubernetes

go 1.25.0

require (
\tgithub.com/spf13/cobra v1.10.0
\tk8s.io/api v0.0.0
\tk8s.io/apiserver v0.0.0
)

replace (
\tk8s.io/api => ./staging/src/k8s.io/api
\tk8s.io/apiserver => ./staging/src/k8s.io/apiserver
\tk8s.io/api => ./staging/src/k8s.io/api
)

replace k8s.io/kms => ./staging/src/k8s.io/kms
replace github.com/foo/bar => github.com/foo/bar v1.0.0
`;

describe("stagingModules", () => {
  it("lists every ./staging replace once, sorted, in block and single-line form", () => {
    expect(stagingModules(KUBERNETES_GO_MOD)).toEqual(["k8s.io/api", "k8s.io/apiserver", "k8s.io/kms"]);
  });

  it("ignores replaces that do not point into ./staging", () => {
    expect(stagingModules("replace github.com/foo/bar => ../bar\n")).toEqual([]);
  });
});

describe("renderWrapperGoMod", () => {
  it("requires k8s.io/kubernetes and pins each staging module at the matching v0 release", () => {
    expect(renderWrapperGoMod(KUBERNETES_GO_MOD, "v1.35.4")).toBe(
      [
        "module cocoon-controlplane",
        "",
        "go 1.25",
        "",
        "require k8s.io/kubernetes v1.35.4",
        "",
        "replace (",
        "\tk8s.io/api => k8s.io/api v0.35.4",
        "\tk8s.io/apiserver => k8s.io/apiserver v0.35.4",
        "\tk8s.io/kms => k8s.io/kms v0.35.4",
        ")",
        "",
      ].join("\n"),
    );
  });

  it("takes another release's staging modules at its own v0 release", () => {
    const goMod = renderWrapperGoMod(KUBERNETES_GO_MOD, "v1.37.2");
    expect(goMod.split("\n").filter((line) => /v[01]\.3\d/.test(line))).toEqual([
      "require k8s.io/kubernetes v1.37.2",
      "\tk8s.io/api => k8s.io/api v0.37.2",
      "\tk8s.io/apiserver => k8s.io/apiserver v0.37.2",
      "\tk8s.io/kms => k8s.io/kms v0.37.2",
    ]);
  });

  it("refuses a go.mod without staging replaces", () => {
    let err: unknown;
    try {
      renderWrapperGoMod("module example.com/x\n", "v1.35.4");
    } catch (e) {
      err = e;
    }
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe("k8s.io/kubernetes go.mod lists no ./staging replaces");
  });
});

describe("toolsGo", () => {
  it("is excluded from builds by the tools tag and imports every command the Kubernetes module builds", () => {
    expect(toolsGo(kubernetesModule("v1.35.4"))).toBe(
      [
        "//go:build tools",
        "",
        "package tools",
        "",
        "import (",
        '\t_ "go.etcd.io/etcd/server/v3"',
        '\t_ "k8s.io/kubernetes/cmd/kube-apiserver"',
        '\t_ "k8s.io/kubernetes/cmd/kube-scheduler"',
        '\t_ "k8s.io/kubernetes/cmd/kube-controller-manager"',
        ")",
        "",
      ].join("\n"),
    );
  });

  it("imports the registry command alone", () => {
    expect(toolsGo(REGISTRY_MODULE)).toBe(
      '//go:build tools\n\npackage tools\n\nimport (\n\t_ "github.com/distribution/distribution/v3/cmd/registry"\n)\n',
    );
  });
});

describe("kubernetesModule", () => {
  it("stamps the Kubernetes commands with the release, and not etcd, which reports its own", () => {
    const module = kubernetesModule("v1.36.3");
    expect(["etcd", "kube-apiserver", "kube-scheduler"].map((binary) => module.ldflags(binary))).toEqual([
      "-s -w",
      "-s -w -X k8s.io/component-base/version.gitVersion=v1.36.3",
      "-s -w -X k8s.io/component-base/version.gitVersion=v1.36.3",
    ]);
  });
});

describe("trackGoProgress", () => {
  it("counts compiled packages and downloads, ignoring other lines", () => {
    const lines: string[] = [];
    const progress = trackGoProgress("kube-apiserver", (line) => lines.push(line), 60_000);
    progress.line("go: downloading k8s.io/api v0.35.4");
    progress.line("k8s.io/apimachinery/pkg/runtime");
    progress.line("internal/goarch");
    progress.line("# some warning: with spaces");
    progress.done();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^kube-apiserver: 2 packages, 1 modules downloaded, \d+\.\ds elapsed, done$/);
  });

  it("reports periodically with the latest package while running", async () => {
    const lines: string[] = [];
    const progress = trackGoProgress("etcd", (line) => lines.push(line), 20);
    progress.line("go.etcd.io/etcd/server/v3/embed");
    await new Promise((resolve) => setTimeout(resolve, 70));
    progress.done();
    expect(lines[0]).toMatch(/^etcd: 1 packages, \d+\.\ds elapsed, latest go\.etcd\.io\/etcd\/server\/v3\/embed$/);
    expect(lines.filter((line) => line.includes("latest"))).toHaveLength(1); // nothing new, no repeat
    expect(lines.at(-1)).toMatch(/done$/);
  });
});
