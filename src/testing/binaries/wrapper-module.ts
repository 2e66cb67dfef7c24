import { CocoonError } from "../../errors.js";
import { KUBE_APISERVER_PACKAGE, KUBERNETES_STAGING_VERSION, KUBERNETES_VERSION, ETCD_MODULE } from "./versions.js";

/** Name of the throwaway Go module that builds the control-plane binaries. */
export const WRAPPER_MODULE = "cocoon-controlplane";

/**
 * Build-tagged Go file that makes `go mod tidy` keep both commands' dependencies.
 *
 * The `tools` tag keeps it out of every real build; it only anchors the imports.
 */
export const TOOLS_GO = `//go:build tools

package tools

import (
\t_ "${ETCD_MODULE}"
\t_ "${KUBE_APISERVER_PACKAGE}"
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
 * Renders the `go.mod` of the wrapper module that builds `kube-apiserver` and etcd.
 *
 * @param kubernetesGoMod - The text of `k8s.io/kubernetes`'s `go.mod` at {@link KUBERNETES_VERSION}.
 * @throws CocoonError `ERR_CONTROL_PLANE` when that text lists no staging replaces (not the expected file).
 *
 * @example
 * ```ts
 * const goMod = renderWrapperGoMod(readFileSync(kubernetesModFile, "utf8"));
 * ```
 */
export function renderWrapperGoMod(kubernetesGoMod: string): string {
  const staging = stagingModules(kubernetesGoMod);
  if (staging.length === 0) throw new CocoonError("ERR_CONTROL_PLANE", "k8s.io/kubernetes go.mod lists no ./staging replaces");
  const replaces = staging.map((path) => `\t${path} => ${path} ${KUBERNETES_STAGING_VERSION}`);
  return [
    `module ${WRAPPER_MODULE}`,
    "",
    "go 1.25",
    "",
    `require k8s.io/kubernetes ${KUBERNETES_VERSION}`,
    "",
    "replace (",
    ...replaces,
    ")",
    "",
  ].join("\n");
}
