import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { formatElapsed } from "./build-progress.js";
import { goCommand, type GoCommandOptions } from "./go-command.js";
import { DISTRIBUTION_MODULE, DISTRIBUTION_VERSION, REGISTRY_PACKAGE } from "./versions.js";

/** The wrapper module's go.mod: the distribution registry at {@link DISTRIBUTION_VERSION}, nothing else. */
export const REGISTRY_GO_MOD = `module cocoon-registry\n\ngo 1.25\n\nrequire ${DISTRIBUTION_MODULE} ${DISTRIBUTION_VERSION}\n`;

/** Build-tagged file that keeps the registry command's dependencies through `go mod tidy`. */
export const REGISTRY_TOOLS_GO = `//go:build tools\n\npackage tools\n\nimport _ "${REGISTRY_PACKAGE}"\n`;

/**
 * Builds the CNCF distribution `registry` into `outDir` with Go, from the module proxy.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` when `go` is missing or a step fails (with its output tail).
 * @internal
 */
export async function buildRegistryWithGo(outDir: string, options: GoCommandOptions): Promise<void> {
  const started = Date.now();
  const srcDir = join(outDir, "src");
  await mkdir(srcDir, { recursive: true });
  const go = goCommand(srcDir, options);
  const version = (
    await go(["version"]).catch((err: unknown) => {
      throw goMissing(err);
    })
  ).trim();
  options.log(`using ${version}; module cache and build cache as configured for go (GOMODCACHE, GOCACHE)`);
  await writeFile(join(srcDir, "go.mod"), REGISTRY_GO_MOD);
  await writeFile(join(srcDir, "tools.go"), REGISTRY_TOOLS_GO);
  await go(["mod", "tidy"], "go mod tidy").catch(asSetupError);
  await go(["build", "-v", "-ldflags", "-s -w", "-o", join(outDir, "registry"), REGISTRY_PACKAGE], "registry").catch(asSetupError);
  options.log(`built registry in ${formatElapsed(Date.now() - started)}`);
}

function asSetupError(err: unknown): never {
  throw new CocoonError("ERR_TEST_REGISTRY", (err as Error).message, { cause: err });
}

/** The error of a registry build without `go` on PATH. @internal */
export function goMissing(err?: unknown): CocoonError {
  return new CocoonError(
    "ERR_TEST_REGISTRY",
    "cannot build the test registry: `go` is not on PATH. Install Go >= 1.25, or point TEST_ASSET_REGISTRY at an existing " +
      `distribution registry ${DISTRIBUTION_VERSION} binary.`,
    err === undefined ? undefined : { cause: err },
  );
}
