import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import { registryCacheDir } from "./cache-dir.js";
import { ensureCachedBuild } from "./cached-build.js";
import { isExecutable } from "./executable.js";
import { findOnPath } from "./find-on-path.js";
import { buildRegistryWithGo, goMissing } from "./registry-build.js";
import { runCommand } from "./run-command.js";
import type { BinarySource, EnsureBinariesOptions } from "./control-plane-binaries.js";
import { DISTRIBUTION_VERSION } from "./versions.js";

/** Where the registry binary is and how {@link ensureRegistryBinary} found it. */
export interface RegistryBinary {
  /** Absolute path of the distribution `registry`. */
  registry: string;
  /** `env` (TEST_ASSET_REGISTRY), `cache` (built earlier) or `build` (built by this call); never `download`. */
  source: BinarySource;
}

/**
 * Finds or builds the CNCF distribution `registry` ({@link DISTRIBUTION_VERSION}) for `startRegistry`.
 *
 * Order: `TEST_ASSET_REGISTRY` (a path to the binary), then the version-keyed cache, else a build
 * with Go from the module proxy (about a minute on 2 cores; one process builds, others wait), exactly
 * as {@link ensureControlPlaneBinaries} does for the control plane.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` when `TEST_ASSET_REGISTRY` is not executable, or there is no `go` to build with.
 * @example
 * ```ts
 * const { registry, source } = await ensureRegistryBinary();
 * ```
 */
export async function ensureRegistryBinary(options: EnsureBinariesOptions = {}): Promise<RegistryBinary> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[registry] ${line}\n`));
  if (env.TEST_ASSET_REGISTRY) {
    const path = resolve(env.TEST_ASSET_REGISTRY);
    if (!(await isExecutable(path)))
      throw new CocoonError("ERR_TEST_REGISTRY", `${path} (from TEST_ASSET_REGISTRY) is not an executable file`);
    return { registry: path, source: "env" };
  }
  const dir = options.cacheDir ?? registryCacheDir(env);
  const source = await ensureCachedBuild({
    dir,
    what: `the distribution registry ${DISTRIBUTION_VERSION}`,
    code: "ERR_TEST_REGISTRY",
    isUsable: (d) => runsAsVersion(join(d, "registry")),
    preflight: async () => {
      if ((await findOnPath("go", env)) === undefined) throw goMissing();
    },
    fill: async (outDir) => {
      log(`building the distribution registry ${DISTRIBUTION_VERSION} into ${dir}`);
      log("the first build takes a minute or two and about 500 MB of Go build cache; later runs reuse it");
      await buildRegistryWithGo(outDir, { log, env, signal: options.signal });
      return "build";
    },
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
