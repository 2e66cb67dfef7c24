import { KUBERNETES_VERSION } from "./versions.js";

/**
 * Default base URL of the prebuilt envtest archives: controller-tools' GitHub releases, where
 * setup-envtest downloads from.
 *
 * Each archive is `<base>/envtest-<version>/envtest-<version>-<os>-<arch>.tar.gz`, with its
 * `sha512sum` line in the same name plus `.sha512`. Set `COCOON_CONTROLPLANE_DOWNLOAD_URL` to a
 * mirror with the same layout, or to `off` to build with Go only.
 */
export const ENVTEST_DOWNLOAD_URL = "https://github.com/kubernetes-sigs/controller-tools/releases/download";

/** Where one envtest archive and its checksum are. @internal */
export interface EnvtestArchive {
  /** File name, `envtest-v1.35.4-linux-amd64.tar.gz`. */
  name: string;
  /** URL of the archive. */
  url: string;
  /** URL of its `sha512sum` line. */
  sha512Url: string;
}

const GOOS: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "darwin", win32: "windows" };
const GOARCH: Partial<Record<NodeJS.Architecture, string>> = { x64: "amd64", arm64: "arm64", ppc64: "ppc64le", s390x: "s390x" };

/**
 * Names the envtest archive of `version` for this machine under `base`, in setup-envtest's layout.
 *
 * @returns `undefined` when envtest publishes nothing for this OS or CPU.
 * @internal
 */
export function envtestArchive(
  base: string,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
  version: string = KUBERNETES_VERSION,
): EnvtestArchive | undefined {
  const os = GOOS[platform];
  const cpu = GOARCH[arch];
  if (os === undefined || cpu === undefined) return undefined;
  const name = `envtest-${version}-${os}-${cpu}.tar.gz`;
  const url = `${base.replace(/\/+$/, "")}/envtest-${version}/${name}`;
  return { name, url, sha512Url: `${url}.sha512` };
}

/**
 * Returns the download base URL from `COCOON_CONTROLPLANE_DOWNLOAD_URL`, {@link ENVTEST_DOWNLOAD_URL}
 * when it is unset or empty, or `undefined` when it is `off`.
 *
 * @internal
 */
export function downloadBaseFrom(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.COCOON_CONTROLPLANE_DOWNLOAD_URL?.trim();
  if (value === "off") return undefined;
  return value || ENVTEST_DOWNLOAD_URL;
}
