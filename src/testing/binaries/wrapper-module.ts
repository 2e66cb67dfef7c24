import { CocoonError } from "../../errors.js";
import { stagingVersionOf } from "./kubernetes-version.js";
import {
  ETCD_MODULE,
  KUBE_APISERVER_PACKAGE,
  KUBE_CONTROLLER_MANAGER_PACKAGE,
  KUBE_SCHEDULER_PACKAGE,
  KUBERNETES_VERSION,
} from "./versions.js";

/** Name of the throwaway Go module that builds the control-plane binaries. */
export const WRAPPER_MODULE = "cocoon-controlplane";

/**
 * Build-tagged Go file that makes `go mod tidy` keep the dependencies of every command the module builds
 * (etcd, kube-apiserver, kube-scheduler, kube-controller-manager), so one `go.mod` serves each `go build`.
 *
 * The `tools` tag keeps it out of every real build; it only anchors the imports.
 */
export const TOOLS_GO = `//go:build tools

package tools

import (
\t_ "${ETCD_MODULE}"
\t_ "${KUBE_APISERVER_PACKAGE}"
\t_ "${KUBE_SCHEDULER_PACKAGE}"
\t_ "${KUBE_CONTROLLER_MANAGER_PACKAGE}"
)
`;

/**
 * Lists the staging modules that `k8s.io/kubernetes` replaces with `./staging/src/...` paths.
 *
 * Those replaces do not apply to a module that requires `k8s.io/kubernetes`, so a wrapper must
 * replace each of them with the published version itself.
 *
 * @param kubernetesGoMod - The text of `k8s.io/kubernetes`'s own `go.mod`.
 * @returns The module paths, sorted and without duplicates.
 */
export function stagingModules(kubernetesGoMod: string): string[] {
  const found = new Set<string>();
  for (const match of kubernetesGoMod.matchAll(/^\s*(?:replace\s+)?(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\//gm)) {
    if (match[1] !== undefined) found.add(match[1]);
  }
  return [...found].sort();
}

/**
 * Renders the `go.mod` of the wrapper module that builds `kube-apiserver`, `kube-scheduler`, `kube-controller-manager` and etcd.
 *
 * @param kubernetesGoMod - The text of `k8s.io/kubernetes`'s `go.mod` at `version`.
 * @param version - The Kubernetes release; its staging modules are taken at the matching `v0.<minor>.<patch>`.
 * @throws CocoonError `ERR_CONTROL_PLANE` when that text lists no staging replaces (not the expected file).
 *
 * @example
 * ```ts
 * const goMod = renderWrapperGoMod(readFileSync(kubernetesModFile, "utf8"));
 * ```
 */
export function renderWrapperGoMod(kubernetesGoMod: string, version: string = KUBERNETES_VERSION): string {
  const staging = stagingModules(kubernetesGoMod);
  if (staging.length === 0) throw new CocoonError("ERR_CONTROL_PLANE", "k8s.io/kubernetes go.mod lists no ./staging replaces");
  const replaces = staging.map((path) => `\t${path} => ${path} ${stagingVersionOf(version)}`);
  return [
    `module ${WRAPPER_MODULE}`,
    "",
    "go 1.25",
    "",
    `require k8s.io/kubernetes ${version}`,
    "",
    "replace (",
    ...replaces,
    ")",
    "",
  ].join("\n");
}
