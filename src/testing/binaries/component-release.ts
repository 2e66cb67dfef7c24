/**
 * Default base URL of the published Kubernetes release binaries (`dl.k8s.io`), where `kube-scheduler`
 * and `kube-controller-manager` are downloaded from.
 *
 * Each binary is `<base>/<version>/bin/linux/<arch>/<command>`, with its bare SHA-256 in the same
 * name plus `.sha256`. Set `COCOON_SCHEDULER_DOWNLOAD_URL` to a mirror with the same layout, or to `off`
 * to build with Go only.
 *
 * @example
 * ```ts
 * `${SCHEDULER_DOWNLOAD_URL}/v1.35.4/bin/linux/amd64/kube-scheduler`; // the binary ensureSchedulerBinary fetches
 * ```
 */
export const SCHEDULER_DOWNLOAD_URL = "https://dl.k8s.io/release";

/** A Kubernetes component the test control plane runs beside kube-apiserver, fetched the same way. @internal */
export type KubernetesComponent = "kube-scheduler" | "kube-controller-manager";

/** Where one published component binary and its checksum are. @internal */
export interface ComponentRelease {
  /** The command: the file name under the release and in the cache. */
  command: KubernetesComponent;
  /** URL of the binary. */
  url: string;
  /** URL of its bare SHA-256. */
  sha256Url: string;
}

// Kubernetes publishes its server binaries, kube-scheduler and kube-controller-manager among them, for Linux only.
const GOARCH: Partial<Record<NodeJS.Architecture, string>> = { x64: "amd64", arm64: "arm64", ppc64: "ppc64le", s390x: "s390x" };

/**
 * Names the published `command` (default `kube-scheduler`) of `version` for this machine under `base`.
 *
 * @returns `undefined` when Kubernetes publishes none for this OS or CPU (anything but Linux).
 * @internal
 */
export function componentRelease(
  base: string,
  version: string,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
  command: KubernetesComponent = "kube-scheduler",
): ComponentRelease | undefined {
  const cpu = GOARCH[arch];
  if (platform !== "linux" || cpu === undefined) return undefined;
  const url = `${base.replace(/\/+$/, "")}/${version}/bin/linux/${cpu}/${command}`;
  return { command, url, sha256Url: `${url}.sha256` };
}

/**
 * Returns the download base URL from `COCOON_SCHEDULER_DOWNLOAD_URL`, {@link SCHEDULER_DOWNLOAD_URL}
 * when it is unset or empty, or `undefined` when it is `off`.
 *
 * @internal
 */
export function schedulerDownloadBaseFrom(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.COCOON_SCHEDULER_DOWNLOAD_URL?.trim();
  if (value === "off") return undefined;
  return value || SCHEDULER_DOWNLOAD_URL;
}
