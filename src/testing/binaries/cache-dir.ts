import { homedir } from "node:os";
import { join } from "node:path";
import { KUBERNETES_VERSION } from "./versions.js";

/**
 * Returns the folder that holds the built `etcd` and `kube-apiserver` for {@link KUBERNETES_VERSION}.
 *
 * The root is `$COCOON_CONTROLPLANE_CACHE` when set, else `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/controlplane`;
 * the version is always appended, so a new release never reuses old binaries.
 *
 * @example
 * ```ts
 * controlPlaneCacheDir({ HOME: "/home/me" }); // "/home/me/.cache/cocoon-common/controlplane/v1.35.4"
 * ```
 */
export function controlPlaneCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(controlPlaneCacheRoot(env), KUBERNETES_VERSION);
}

/** Returns the version-independent root of {@link controlPlaneCacheDir}. */
export function controlPlaneCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COCOON_CONTROLPLANE_CACHE) return env.COCOON_CONTROLPLANE_CACHE;
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(cacheHome, "cocoon-common", "controlplane");
}
