/**
 * What the tests run, and where it is downloaded from: the releases, the mirrors' layouts, and the
 * variables that choose them.
 */
import { CocoonError } from "../../errors.js";
import { runCommand } from "./command.js";
import type { Release } from "./download.js";

/**
 * Kubernetes release whose `kube-apiserver` the test control plane runs by default.
 *
 * The build pins every `k8s.io/*` staging module to the matching `v0.<minor>.<patch>` (v0.35.4) and
 * takes etcd at the version the release's `go.mod` requires (v3.6.5 for v1.35.4).
 */
export const KUBERNETES_VERSION = "v1.35.4";

/**
 * Kubernetes releases the test control plane can run: the newest patch of each minor the integration
 * suite is proven on (CI runs it on each). {@link KUBERNETES_VERSION} is the default.
 */
export const KUBERNETES_VERSIONS = ["v1.35.4", "v1.36.3", "v1.37.2"] as const;

/** Version of the CNCF distribution registry that `startRegistry` runs. */
export const DISTRIBUTION_VERSION = "v3.1.2";

/**
 * Default base URL of the prebuilt envtest archives (etcd and kube-apiserver): controller-tools'
 * GitHub releases, where setup-envtest downloads from.
 *
 * Each archive is `<base>/envtest-<version>/envtest-<version>-<os>-<arch>.tar.gz`, with its
 * `sha512sum` line in the same name plus `.sha512`. Set `COCOON_CONTROLPLANE_DOWNLOAD_URL` to a
 * mirror with the same layout, or to `off` to build with Go only.
 */
export const ENVTEST_DOWNLOAD_URL = "https://github.com/kubernetes-sigs/controller-tools/releases/download";

/**
 * Default base URL of the published Kubernetes release binaries (`dl.k8s.io`), where the control-plane
 * components other than etcd and kube-apiserver (`kube-scheduler`, `kube-controller-manager`) come from.
 *
 * Each binary is `<base>/<version>/bin/linux/<arch>/<command>`, with its bare SHA-256 in the same
 * name plus `.sha256`. Set `COCOON_COMPONENT_DOWNLOAD_URL` to a mirror with the same layout, or to `off`
 * to build with Go only.
 *
 * @example
 * ```ts
 * `${COMPONENT_DOWNLOAD_URL}/v1.35.4/bin/linux/amd64/kube-scheduler`; // the binary ensureSchedulerBinary fetches
 * ```
 */
export const COMPONENT_DOWNLOAD_URL = "https://dl.k8s.io/release";

/**
 * Default base URL of the prebuilt registry archives: the CNCF distribution project's GitHub releases.
 *
 * Each archive is `<base>/<version>/registry_<version without v>_<os>_<arch>.tar.gz` (it holds
 * `registry`, `README.md` and `LICENSE`), with its bare SHA-256 in the same name plus `.sha256`.
 * Set `COCOON_REGISTRY_DOWNLOAD_URL` to a mirror with the same layout, or to `off` to build with Go only.
 */
export const REGISTRY_DOWNLOAD_URL = "https://github.com/distribution/distribution/releases/download";

/**
 * The SHA-256 of each published `registry_3.1.2_linux_<arch>.tar.gz` (keyed by the archive's arch), as the
 * release's `.sha256` files say; the download from {@link REGISTRY_DOWNLOAD_URL} must match it.
 *
 * The release publishes Linux archives only, so elsewhere the registry is built with Go.
 */
export const REGISTRY_ARCHIVE_SHA256: Readonly<Record<string, string>> = {
  amd64: "40df2224d410f72ae425c3371873b078bbdbda3b8b612be9571f0e6751f3acc8",
  arm64: "09d26f88d2c0f161bd1b8bfc6c123571cc3d291dcca8af5477b3cacc4ec95e73",
  ppc64le: "3bee3e9fac37fb182a56f1dba0fc9fa059e598b1ec31049a69c48ed610ff14ca",
  s390x: "907d384ac0b181a84f61aacfc32ed26f6af0e9a7d7877a708a29945f959c81de",
  riscv64: "9bd0f9e3e29ac2429a59729adb866faa0137fca1194a7e0c5eb409dea567cca7",
};

/**
 * Returns the Kubernetes release the control plane runs: `COCOON_KUBERNETES_VERSION` when set (a
 * release of {@link KUBERNETES_VERSIONS}, `v1.36.3`, or its minor, `1.36`), else {@link KUBERNETES_VERSION}.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` naming the supported releases when the variable names another.
 * @example
 * ```ts
 * kubernetesVersionFrom({ COCOON_KUBERNETES_VERSION: "1.37" }); // "v1.37.2"
 * ```
 */
export function kubernetesVersionFrom(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.COCOON_KUBERNETES_VERSION?.trim();
  if (!value) return KUBERNETES_VERSION;
  const minor = /^v?(1\.\d+)$/.exec(value)?.[1];
  const found = KUBERNETES_VERSIONS.find((v) => v === value || v === `v${value}` || (minor !== undefined && v.startsWith(`v${minor}.`)));
  if (found === undefined) {
    throw new CocoonError(
      "ERR_CONTROL_PLANE",
      `COCOON_KUBERNETES_VERSION=${value} is not a supported Kubernetes release; use one of ${KUBERNETES_VERSIONS.join(", ")} or its minor (1.36)`,
    );
  }
  return found;
}

/**
 * Returns the Kubernetes release a Kubernetes binary reports (`kube-apiserver --version` prints
 * `Kubernetes v1.35.4`), so a kube-scheduler can be matched to the API server it serves.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when the binary does not run or prints no release.
 * @internal
 */
export async function kubernetesVersionOf(binary: string): Promise<string> {
  const { stdout } = await runCommand(binary, ["--version"]);
  const version = /^Kubernetes (v\d+\.\d+\.\d+\S*)$/m.exec(stdout)?.[1];
  if (version === undefined) {
    throw new CocoonError("ERR_CONTROL_PLANE", `${binary} --version printed no Kubernetes release: "${stdout.trim().slice(0, 80)}"`);
  }
  return version;
}

/**
 * Returns the download base URL from `env[variable]`, `fallback` when it is unset or empty, or
 * `undefined` when it is `off`.
 *
 * @internal
 */
export function downloadBaseFrom(env: NodeJS.ProcessEnv, variable: string, fallback: string): string | undefined {
  const value = env[variable]?.trim();
  if (value === "off") return undefined;
  return value || fallback;
}

const GOOS: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "darwin", win32: "windows" };
const GOARCH: Partial<Record<NodeJS.Architecture, string>> = {
  x64: "amd64",
  arm64: "arm64",
  ppc64: "ppc64le",
  s390x: "s390x",
  riscv64: "riscv64",
};

/** The CPU as Go names it, or `undefined` when the release has nothing for it (riscv64: the registry's only). */
function goArch(arch: NodeJS.Architecture, riscv = false): string | undefined {
  const cpu = GOARCH[arch];
  return cpu === "riscv64" && !riscv ? undefined : cpu;
}

const trim = (base: string): string => base.replace(/\/+$/, "");

/**
 * Names the envtest archive of `version` (etcd and kube-apiserver) for this machine under `base`, in
 * setup-envtest's layout: its checksum is the `sha512sum` line next to it, and upstream nests the
 * binaries in `controller-tools/envtest/`.
 *
 * @returns `undefined` when envtest publishes nothing for this OS or CPU.
 * @internal
 */
export function envtestArchive(
  base: string,
  version: string,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
): Release | undefined {
  const os = GOOS[platform];
  const cpu = goArch(arch);
  if (os === undefined || cpu === undefined) return undefined;
  const name = `envtest-${version}-${os}-${cpu}.tar.gz`;
  return { name, url: `${trim(base)}/envtest-${version}/${name}`, digest: "sha512", unpack: ["etcd", "kube-apiserver"] };
}

/**
 * Names the published `command` of Kubernetes `version` for this machine under `base`, in
 * `dl.k8s.io`'s layout: the binary itself, with its bare SHA-256 next to it.
 *
 * @returns `undefined` when Kubernetes publishes none for this OS or CPU (anything but Linux).
 * @internal
 */
export function kubernetesRelease(
  base: string,
  version: string,
  command: string,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
): Release | undefined {
  const cpu = goArch(arch);
  if (platform !== "linux" || cpu === undefined) return undefined;
  return { name: command, url: `${trim(base)}/${version}/bin/linux/${cpu}/${command}`, digest: "sha256" };
}

/**
 * Names the distribution registry archive of `version` for this machine under `base`, in the
 * release's layout. From {@link REGISTRY_DOWNLOAD_URL} at {@link DISTRIBUTION_VERSION}, the SHA-256
 * is the one pinned in {@link REGISTRY_ARCHIVE_SHA256}; from a mirror it is read from the `.sha256`.
 *
 * @returns `undefined` when the release publishes nothing for this OS or CPU (anything but Linux).
 * @internal
 */
export function registryArchive(
  base: string,
  version: string = DISTRIBUTION_VERSION,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
): Release | undefined {
  const cpu = goArch(arch, true);
  if (platform !== "linux" || cpu === undefined) return undefined;
  const name = `registry_${version.replace(/^v/, "")}_linux_${cpu}.tar.gz`;
  const upstream = trim(base) === REGISTRY_DOWNLOAD_URL && version === DISTRIBUTION_VERSION;
  return {
    name,
    url: `${trim(base)}/${version}/${name}`,
    digest: "sha256",
    unpack: ["registry"],
    ...(upstream && { pinned: REGISTRY_ARCHIVE_SHA256[cpu] }),
  };
}
