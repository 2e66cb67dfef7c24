import { DISTRIBUTION_VERSION } from "./versions.js";

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

/** Where one registry archive is, and how its checksum is known. @internal */
export interface RegistryArchive {
  /** File name, `registry_3.1.2_linux_amd64.tar.gz`. */
  name: string;
  /** URL of the archive. */
  url: string;
  /** The SHA-256 pinned in this library, for the upstream release; `undefined` for a mirror. */
  sha256: string | undefined;
  /** URL of its `.sha256` file, read when no SHA-256 is pinned. */
  sha256Url: string;
}

const GOARCH: Partial<Record<NodeJS.Architecture, string>> = {
  x64: "amd64",
  arm64: "arm64",
  ppc64: "ppc64le",
  s390x: "s390x",
  riscv64: "riscv64",
};

/**
 * Names the registry archive of `version` for this machine under `base`, in the release's layout.
 *
 * From {@link REGISTRY_DOWNLOAD_URL} at {@link DISTRIBUTION_VERSION}, the SHA-256 is the one pinned in
 * {@link REGISTRY_ARCHIVE_SHA256}; from a mirror it is read from the `.sha256` next to the archive.
 *
 * @returns `undefined` when the release publishes nothing for this OS or CPU (anything but Linux).
 * @internal
 */
export function registryArchive(
  base: string,
  platform: NodeJS.Platform = process.platform,
  arch: NodeJS.Architecture = process.arch,
  version: string = DISTRIBUTION_VERSION,
): RegistryArchive | undefined {
  const cpu = GOARCH[arch];
  if (platform !== "linux" || cpu === undefined) return undefined;
  const trimmed = base.replace(/\/+$/, "");
  const name = `registry_${version.replace(/^v/, "")}_linux_${cpu}.tar.gz`;
  const url = `${trimmed}/${version}/${name}`;
  const upstream = trimmed === REGISTRY_DOWNLOAD_URL && version === DISTRIBUTION_VERSION;
  return { name, url, sha256: upstream ? REGISTRY_ARCHIVE_SHA256[cpu] : undefined, sha256Url: `${url}.sha256` };
}

/**
 * Returns the download base URL from `COCOON_REGISTRY_DOWNLOAD_URL`, {@link REGISTRY_DOWNLOAD_URL}
 * when it is unset or empty, or `undefined` when it is `off`.
 *
 * @internal
 */
export function registryDownloadBaseFrom(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.COCOON_REGISTRY_DOWNLOAD_URL?.trim();
  if (value === "off") return undefined;
  return value || REGISTRY_DOWNLOAD_URL;
}
