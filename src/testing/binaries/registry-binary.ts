import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import { registryCacheDir } from "./cache-dir.js";
import { ensureCachedBuild } from "./cached-build.js";
import { isExecutable } from "./executable.js";
import { registryDownloadBaseFrom } from "./registry-archive.js";
import { registryFill } from "./registry-fill.js";
import { runCommand } from "./run-command.js";
import type { BinarySource, EnsureBinariesOptions } from "./control-plane-binaries.js";
import { DISTRIBUTION_VERSION } from "./versions.js";

/** Where the registry binary is and how {@link ensureRegistryBinary} found it. */
export interface RegistryBinary {
  /** Absolute path of the distribution `registry`. */
  registry: string;
  /** `env` (TEST_ASSET_REGISTRY), `cache` (there earlier), `download` or `build` (by this call). */
  source: BinarySource;
}

/** Options of {@link ensureRegistryBinary}. */
export interface EnsureRegistryBinaryOptions extends EnsureBinariesOptions {
  /**
   * Base URL of the prebuilt distribution release archives (the release's layout), or `false` to build with Go only.
   *
   * Default: `$COCOON_REGISTRY_DOWNLOAD_URL` (`off` turns downloads off), else {@link REGISTRY_DOWNLOAD_URL}.
   */
  downloadUrl?: string | false;
  /** Give up a download when no bytes arrive for this long; default 30 s. */
  downloadTimeoutMs?: number;
}

/**
 * Finds, downloads or builds the CNCF distribution `registry` ({@link DISTRIBUTION_VERSION}) for `startRegistry`.
 *
 * Order: `TEST_ASSET_REGISTRY` (a path to the binary), then the version-keyed cache, then the
 * release archive `registry_3.1.2_linux_<arch>.tar.gz` checked against its published SHA-256 (see
 * `downloadUrl`), else a build with Go from the module proxy (about a minute on 2 cores). One
 * process downloads or builds while the others wait, exactly as {@link ensureControlPlaneBinaries}
 * does for the control plane.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` when `TEST_ASSET_REGISTRY` is not executable, or when the
 * download is off or fails and there is no `go` to build with (then before waiting on any other process).
 * @example
 * ```ts
 * const { registry, source } = await ensureRegistryBinary();
 * ```
 */
export async function ensureRegistryBinary(options: EnsureRegistryBinaryOptions = {}): Promise<RegistryBinary> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[registry] ${line}\n`));
  if (env.TEST_ASSET_REGISTRY) {
    const path = resolve(env.TEST_ASSET_REGISTRY);
    if (!(await isExecutable(path)))
      throw new CocoonError("ERR_TEST_REGISTRY", `${path} (from TEST_ASSET_REGISTRY) is not an executable file`);
    return { registry: path, source: "env" };
  }
  const dir = options.cacheDir ?? registryCacheDir(env);
  const isUsable = (d: string): Promise<boolean> => runsAsVersion(join(d, "registry"));
  const downloadBase = options.downloadUrl === false ? undefined : (options.downloadUrl ?? registryDownloadBaseFrom(env));
  // eslint-disable-next-line @typescript-eslint/unbound-method -- registryFill returns closures, not methods that use this
  const { preflight, fill } = registryFill({
    dir,
    downloadBase,
    downloadTimeoutMs: options.downloadTimeoutMs,
    env,
    log,
    signal: options.signal,
    isUsable,
  });
  const source = await ensureCachedBuild({
    dir,
    what: `the distribution registry ${DISTRIBUTION_VERSION}`,
    code: "ERR_TEST_REGISTRY",
    isUsable,
    preflight,
    fill,
    log,
    signal: options.signal,
  });
  return { registry: join(dir, "registry"), source };
}

async function runsAsVersion(path: string): Promise<boolean> {
  if (!(await isExecutable(path))) return false;
  const result = await runCommand(path, ["--version"]).catch(() => undefined);
  return result?.stdout.includes(` ${DISTRIBUTION_VERSION}`) ?? false;
}
