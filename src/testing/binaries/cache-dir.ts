import { homedir } from "node:os";
import { join } from "node:path";
import { kubernetesVersionFrom } from "./kubernetes-version.js";
import { DISTRIBUTION_VERSION } from "./versions.js";

/**
 * Returns the folder that holds `etcd` and `kube-apiserver` for the selected Kubernetes release
 * ({@link kubernetesVersionFrom}: `COCOON_KUBERNETES_VERSION`, else {@link KUBERNETES_VERSION}).
 *
 * The root is `$COCOON_CONTROLPLANE_CACHE` when set, else `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/controlplane`;
 * the version is always appended, so a new release never reuses old binaries.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when `COCOON_KUBERNETES_VERSION` names an unsupported release.
 *
 * @example
 * ```ts
 * controlPlaneCacheDir({ HOME: "/home/me" }); // "/home/me/.cache/cocoon-common/controlplane/v1.35.4"
 * ```
 */
export function controlPlaneCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(controlPlaneCacheRoot(env), kubernetesVersionFrom(env));
}

/** Returns the version-independent root of {@link controlPlaneCacheDir}. */
export function controlPlaneCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.COCOON_CONTROLPLANE_CACHE || join(cacheHome(env), "cocoon-common", "controlplane");
}

/**
 * Returns the folder that holds the built distribution `registry` for {@link DISTRIBUTION_VERSION}.
 *
 * The root is `$COCOON_REGISTRY_CACHE` when set, else `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/registry`;
 * the version is always appended.
 *
 * @example
 * ```ts
 * registryCacheDir({ HOME: "/home/me" }); // "/home/me/.cache/cocoon-common/registry/v3.1.2"
 * ```
 */
export function registryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.COCOON_REGISTRY_CACHE || join(cacheHome(env), "cocoon-common", "registry"), DISTRIBUTION_VERSION);
}

function cacheHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
}
