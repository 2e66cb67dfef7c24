import { CocoonError } from "../../errors.js";
import type { ControlPlaneFillOptions } from "./control-plane-fill.js";
import { downloadThenBuild } from "./download-then-build.js";
import { registryArchive } from "./registry-archive.js";
import { buildRegistryWithGo } from "./registry-build.js";
import { downloadRegistryBinary } from "./registry-download.js";
import { DISTRIBUTION_VERSION } from "./versions.js";

/** How {@link registryFill} may fill the cache: the control plane's options, with the registry's download base. */
export type RegistryFillOptions = Omit<ControlPlaneFillOptions, "version">;

const WHAT = `the distribution registry ${DISTRIBUTION_VERSION}`;

/**
 * Plans how to fill the registry cache: the release archive first, then a Go build.
 *
 * `preflight` fails at once, with one message, when there is neither a download for this platform
 * nor a `go` on PATH. `fill` tries the download; when it fails it logs why and builds with Go, or,
 * without Go, throws `ERR_TEST_REGISTRY` naming the failed download as its cause.
 *
 * @internal
 */
export function registryFill(options: RegistryFillOptions): {
  preflight(): Promise<void>;
  fill(outDir: string): Promise<"download" | "build">;
} {
  const archive = options.downloadBase === undefined ? undefined : registryArchive(options.downloadBase);
  const { log, signal, downloadTimeoutMs: idleTimeoutMs } = options;
  return downloadThenBuild({
    ...options,
    what: WHAT,
    download: archive && {
      run: (outDir) => downloadRegistryBinary(archive, outDir, { log, idleTimeoutMs, signal }),
      unusable: () => new CocoonError("ERR_TEST_REGISTRY", `the registry in ${archive.name} from ${archive.url} does not run as ${WHAT}`),
    },
    buildNote: "the first build takes a minute or two and about 500 MB of Go build cache; later runs reuse it",
    build: (outDir) => buildRegistryWithGo(outDir, { log, env: options.env, signal }),
    noWay: {
      code: "ERR_TEST_REGISTRY",
      downloadBase: options.downloadBase,
      variable: "COCOON_REGISTRY_DOWNLOAD_URL",
      publisher: "the distribution release publishes no archive",
      pronoun: "it",
      remedy:
        "point COCOON_REGISTRY_DOWNLOAD_URL at a mirror of the distribution release archives, or point TEST_ASSET_REGISTRY at " +
        `an existing distribution registry ${DISTRIBUTION_VERSION} binary`,
    },
  });
}
