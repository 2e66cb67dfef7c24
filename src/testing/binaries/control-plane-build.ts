import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError } from "../../errors.js";
import { formatElapsed } from "./build-progress.js";
import { goCommand, type GoCommandOptions } from "./go-command.js";
import { ETCD_MODULE, KUBE_APISERVER_PACKAGE, KUBE_CONTROLLER_MANAGER_PACKAGE, KUBE_SCHEDULER_PACKAGE } from "./versions.js";
import { renderWrapperGoMod, TOOLS_GO } from "./wrapper-module.js";

/** A command the wrapper module builds; the file in the output folder has this name. @internal */
export type KubernetesCommand = "kube-apiserver" | "etcd" | "kube-scheduler" | "kube-controller-manager";

/** Options of {@link buildWithGo}. */
export interface GoBuildOptions extends GoCommandOptions {
  /** The Kubernetes release to build, `v1.35.4`. */
  version: string;
  /** What to build, in this order; default `kube-apiserver` then `etcd`. */
  commands?: readonly KubernetesCommand[] | undefined;
  /** What `go` is missing for, in the error that says so; default the control plane's etcd and kube-apiserver. */
  goMissingHint?: string | undefined;
}

const PACKAGES: Record<KubernetesCommand, string> = {
  "kube-apiserver": KUBE_APISERVER_PACKAGE,
  "kube-scheduler": KUBE_SCHEDULER_PACKAGE,
  "kube-controller-manager": KUBE_CONTROLLER_MANAGER_PACKAGE,
  etcd: ETCD_MODULE,
};

/**
 * Builds Kubernetes commands at `options.version` (by default `kube-apiserver` and the etcd its
 * go.mod requires) into `outDir` with Go, from the module proxy.
 *
 * Writes a wrapper module to `outDir/src` (`go.mod` generated from `k8s.io/kubernetes`'s own
 * go.mod, plus a build-tagged tools file naming every command), runs `go mod tidy`, then one
 * `go build` per command. The Kubernetes commands share most packages, so a `kube-scheduler` built
 * after `kube-apiserver` mostly reuses Go's build cache.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when `go` is missing or a step fails (with its output tail).
 */
export async function buildWithGo(outDir: string, options: GoBuildOptions): Promise<void> {
  const { log } = options;
  const commands = options.commands ?? ["kube-apiserver", "etcd"];
  const started = Date.now();
  const srcDir = join(outDir, "src");
  await mkdir(srcDir, { recursive: true });
  const go = goCommand(srcDir, options);

  const version = (await go(["version"]).catch((err: unknown) => goMissing(err, options.goMissingHint))).trim();
  log(`using ${version}; module cache and build cache as configured for go (GOMODCACHE, GOCACHE)`);

  const { version: kubernetes } = options;
  const download = JSON.parse(await go(["mod", "download", "-json", `k8s.io/kubernetes@${kubernetes}`])) as {
    GoMod?: string;
    Error?: string;
  };
  if (!download.GoMod) throw new CocoonError("ERR_CONTROL_PLANE", `go mod download k8s.io/kubernetes: ${download.Error ?? "no go.mod"}`);
  await writeFile(join(srcDir, "go.mod"), renderWrapperGoMod(await readFile(download.GoMod, "utf8"), kubernetes));
  await writeFile(join(srcDir, "tools.go"), TOOLS_GO);

  await go(["mod", "tidy"], "go mod tidy");
  for (const command of commands) {
    // etcd reports its own version; the Kubernetes commands learn theirs from the linker.
    const ldflags = command === "etcd" ? "-s -w" : `-s -w -X k8s.io/component-base/version.gitVersion=${kubernetes}`;
    await go(["build", "-v", "-ldflags", ldflags, "-o", join(outDir, command), PACKAGES[command]], command);
  }
  log(`built ${commands.join(" and ")} in ${formatElapsed(Date.now() - started)}`);
}

const CONTROL_PLANE_HINT =
  "TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries";

function goMissing(err: unknown, hint = CONTROL_PLANE_HINT): never {
  throw new CocoonError(
    "ERR_CONTROL_PLANE",
    `cannot build the test control plane: \`go\` is not on PATH. Install Go >= 1.25, or point ${hint}.`,
    { cause: err },
  );
}
