import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { renderWrapperGoMod, stagingModules, TOOLS_GO } from "./wrapper-module.js";

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
    expect(renderWrapperGoMod(KUBERNETES_GO_MOD)).toBe(
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
    expect(() => renderWrapperGoMod("module example.com/x\n")).toThrow(/no \.\/staging replaces/);
    try {
      renderWrapperGoMod("");
    } catch (err) {
      expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    }
  });
});

describe("TOOLS_GO", () => {
  it("is excluded from builds by the tools tag and imports every command the module builds", () => {
    expect(TOOLS_GO).toBe(
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
});
