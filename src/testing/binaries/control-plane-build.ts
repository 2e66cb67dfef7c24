import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { formatElapsed } from "./build-progress.js";
import { goCommand, type GoCommandOptions } from "./go-command.js";
import { ETCD_MODULE, KUBE_APISERVER_PACKAGE, KUBERNETES_VERSION } from "./versions.js";
import { renderWrapperGoMod, TOOLS_GO } from "./wrapper-module.js";

/** Options of {@link buildWithGo}. */
export type GoBuildOptions = GoCommandOptions;

/**
 * Builds `kube-apiserver` and `etcd` into `outDir` with Go, from the module proxy.
 *
 * Writes a wrapper module to `outDir/src` (`go.mod` generated from `k8s.io/kubernetes`'s own
 * go.mod, plus a build-tagged tools file), runs `go mod tidy`, then one `go build` per binary.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when `go` is missing or a step fails (with its output tail).
 */
export async function buildWithGo(outDir: string, options: GoBuildOptions): Promise<void> {
  const { log } = options;
  const started = Date.now();
  const srcDir = join(outDir, "src");
  await mkdir(srcDir, { recursive: true });
  const go = goCommand(srcDir, options);

  const version = (await go(["version"]).catch(goMissing)).trim();
  log(`using ${version}; module cache and build cache as configured for go (GOMODCACHE, GOCACHE)`);

  const download = JSON.parse(await go(["mod", "download", "-json", `k8s.io/kubernetes@${KUBERNETES_VERSION}`])) as {
    GoMod?: string;
    Error?: string;
  };
  if (!download.GoMod) throw new CocoonError("ERR_CONTROL_PLANE", `go mod download k8s.io/kubernetes: ${download.Error ?? "no go.mod"}`);
  await writeFile(join(srcDir, "go.mod"), renderWrapperGoMod(await readFile(download.GoMod, "utf8")));
  await writeFile(join(srcDir, "tools.go"), TOOLS_GO);

  await go(["mod", "tidy"], "go mod tidy");
  const ldflags = `-s -w -X k8s.io/component-base/version.gitVersion=${KUBERNETES_VERSION}`;
  await go(["build", "-v", "-ldflags", ldflags, "-o", join(outDir, "kube-apiserver"), KUBE_APISERVER_PACKAGE], "kube-apiserver");
  await go(["build", "-v", "-ldflags", "-s -w", "-o", join(outDir, "etcd"), ETCD_MODULE], "etcd");
  log(`built kube-apiserver and etcd in ${formatElapsed(Date.now() - started)}`);
}

function goMissing(err: unknown): never {
  throw new CocoonError(
    "ERR_CONTROL_PLANE",
    "cannot build the test control plane: `go` is not on PATH. Install Go >= 1.25, or point " +
      "TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries.",
    { cause: err },
  );
}
