/**
 * Building the binaries with Go from the module proxy, in a throwaway wrapper module, with a
 * progress line every few seconds.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CocoonError, type CocoonErrorCode } from "../../errors.js";
import { formatElapsed, runCommand, type ProgressLog } from "./command.js";
import { DISTRIBUTION_VERSION } from "./versions.js";

/** A throwaway Go module that builds some commands. @internal */
export interface GoModule {
  /** Its `go.mod`; `go` runs in the module folder, to download what it needs to write it. */
  goMod(go: GoRunner): Promise<string>;
  /** The Go package of each command it builds, by the binary's name. */
  packages: Readonly<Record<string, string>>;
  /** The `-ldflags` of a binary. */
  ldflags(binary: string): string;
}

const KUBERNETES_PACKAGES = {
  etcd: "go.etcd.io/etcd/server/v3",
  "kube-apiserver": "k8s.io/kubernetes/cmd/kube-apiserver",
  "kube-scheduler": "k8s.io/kubernetes/cmd/kube-scheduler",
  "kube-controller-manager": "k8s.io/kubernetes/cmd/kube-controller-manager",
};

/**
 * The module that builds etcd and the Kubernetes commands of `version`: it requires `k8s.io/kubernetes`
 * and pins its staging modules (see {@link renderWrapperGoMod}). The commands share most packages, so a
 * `kube-scheduler` built after `kube-apiserver` mostly reuses Go's build cache.
 *
 * @internal
 */
export function kubernetesModule(version: string): GoModule {
  return {
    packages: KUBERNETES_PACKAGES,
    async goMod(go) {
      const download = JSON.parse(await go(["mod", "download", "-json", `k8s.io/kubernetes@${version}`])) as {
        GoMod?: string;
        Error?: string;
      };
      if (!download.GoMod)
        throw new CocoonError("ERR_CONTROL_PLANE", `go mod download k8s.io/kubernetes: ${download.Error ?? "no go.mod"}`);
      return renderWrapperGoMod(await readFile(download.GoMod, "utf8"), version);
    },
    // etcd reports its own version; the Kubernetes commands learn theirs from the linker.
    ldflags: (binary) => (binary === "etcd" ? "-s -w" : `-s -w -X k8s.io/component-base/version.gitVersion=${version}`),
  };
}

/** The module that builds the CNCF distribution `registry` at {@link DISTRIBUTION_VERSION}. @internal */
export const REGISTRY_MODULE: GoModule = {
  packages: { registry: "github.com/distribution/distribution/v3/cmd/registry" },
  goMod: () =>
    Promise.resolve(`module cocoon-registry\n\ngo 1.25\n\nrequire github.com/distribution/distribution/v3 ${DISTRIBUTION_VERSION}\n`),
  ldflags: () => "-s -w",
};

/**
 * The build-tagged Go file that makes `go mod tidy` keep the dependencies of every command the module
 * builds, so one `go.mod` serves each `go build`. The `tools` tag keeps it out of every real build.
 *
 * @internal
 */
export function toolsGo(module: GoModule): string {
  const imports = Object.values(module.packages).map((path) => `\t_ "${path}"\n`);
  return `//go:build tools\n\npackage tools\n\nimport (\n${imports.join("")})\n`;
}

/**
 * Lists the staging modules that `k8s.io/kubernetes` replaces with `./staging/src/...` paths.
 *
 * Those replaces do not apply to a module that requires `k8s.io/kubernetes`, so a wrapper must
 * replace each of them with the published version itself.
 *
 * @param kubernetesGoMod - The text of `k8s.io/kubernetes`'s own `go.mod`.
 * @returns The module paths, sorted and without duplicates.
 * @internal
 */
export function stagingModules(kubernetesGoMod: string): string[] {
  const found = new Set<string>();
  for (const match of kubernetesGoMod.matchAll(/^\s*(?:replace\s+)?(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\//gm)) {
    if (match[1] !== undefined) found.add(match[1]);
  }
  return [...found].sort();
}

/**
 * Renders the `go.mod` of the wrapper module that builds the Kubernetes commands and etcd.
 *
 * @param kubernetesGoMod - The text of `k8s.io/kubernetes`'s `go.mod` at `version`.
 * @param version - The Kubernetes release; its staging modules are taken at the matching `v0.<minor>.<patch>`.
 * @throws CocoonError `ERR_CONTROL_PLANE` when that text lists no staging replaces (not the expected file).
 * @internal
 */
export function renderWrapperGoMod(kubernetesGoMod: string, version: string): string {
  const staging = stagingModules(kubernetesGoMod);
  if (staging.length === 0) throw new CocoonError("ERR_CONTROL_PLANE", "k8s.io/kubernetes go.mod lists no ./staging replaces");
  const v0 = version.replace(/^v1\./, "v0.");
  const replaces = staging.map((path) => `\t${path} => ${path} ${v0}\n`);
  return `module cocoon-controlplane\n\ngo 1.25\n\nrequire k8s.io/kubernetes ${version}\n\nreplace (\n${replaces.join("")})\n`;
}

/** Runs one `go` command in the module folder; with a `label`, its `-v` output is summarised as progress lines. @internal */
export type GoRunner = (args: string[], label?: string) => Promise<string>;

/** Options of {@link buildWithGo}. @internal */
export interface GoBuildOptions {
  /** What is built, for the error when there is no `go` (`etcd and kube-apiserver v1.35.4`). */
  what: string;
  /** What to point at instead of building, in that error (`TEST_ASSET_REGISTRY at an existing ...`). */
  given: string;
  /** Code of every error. */
  code: CocoonErrorCode;
  /** Progress lines. */
  log: ProgressLog;
  /** Environment of the `go` commands (GOPROXY, GOFLAGS, GOCACHE... are honoured); default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Aborts the running `go` command. */
  signal?: AbortSignal | undefined;
}

/**
 * Builds `binaries` of `module` into `outDir` with Go, from the module proxy.
 *
 * Writes the module to `outDir/src` (its `go.mod` and {@link toolsGo}), runs `go mod tidy`, then one
 * `go build` per binary.
 *
 * @throws CocoonError `options.code` when `go` is missing or a step fails (with its output tail).
 * @internal
 */
export async function buildWithGo(outDir: string, module: GoModule, binaries: readonly string[], options: GoBuildOptions): Promise<void> {
  const started = Date.now();
  const srcDir = join(outDir, "src");
  await mkdir(srcDir, { recursive: true });
  const go: GoRunner = async (args, label) => {
    const progress = label === undefined ? undefined : trackGoProgress(label, options.log);
    try {
      const { stdout } = await runCommand("go", args, {
        cwd: srcDir,
        env: { ...(options.env ?? process.env), GOWORK: "off" },
        code: options.code,
        signal: options.signal,
        ...(progress && { onStderrLine: (line: string) => progress.line(line) }),
      });
      return stdout;
    } finally {
      progress?.done();
    }
  };
  const version = await go(["version"]).catch((err: unknown) => {
    throw new CocoonError(
      options.code,
      `cannot build ${options.what}: \`go\` is not on PATH. Install Go >= 1.25, or point ${options.given}.`,
      { cause: err },
    );
  });
  options.log(`using ${version.trim()}; module cache and build cache as configured for go (GOMODCACHE, GOCACHE)`);
  await writeFile(join(srcDir, "go.mod"), await module.goMod(go));
  await writeFile(join(srcDir, "tools.go"), toolsGo(module));
  await go(["mod", "tidy"], "go mod tidy");
  for (const binary of binaries) {
    await go(["build", "-v", "-ldflags", module.ldflags(binary), "-o", join(outDir, binary), module.packages[binary] ?? binary], binary);
  }
  options.log(`built ${binaries.join(" and ")} in ${formatElapsed(Date.now() - started)}`);
}

/** Summarises a `go` command's `-v` output while it runs; see {@link trackGoProgress}. @internal */
export interface GoProgress {
  /** Feeds one stderr line of the go command. */
  line(text: string): void;
  /** Stops the timer and logs the final count and time. */
  done(): void;
}

/**
 * Summarises `go build -v` / `go mod` output into one progress line every `intervalMs`.
 *
 * Go prints a package path per compiled package and `go: downloading <module>` per download;
 * the summary counts both and names the latest, with the elapsed time.
 *
 * @internal
 */
export function trackGoProgress(label: string, log: ProgressLog, intervalMs = 15_000): GoProgress {
  const started = Date.now();
  let packages = 0;
  let downloads = 0;
  let last = "";
  let reported = -1;
  const report = (final: boolean): void => {
    if (!final && packages + downloads === reported) return;
    reported = packages + downloads;
    const counts = [`${packages} packages`, ...(downloads > 0 ? [`${downloads} modules downloaded`] : [])].join(", ");
    log(`${label}: ${counts}, ${formatElapsed(Date.now() - started)} elapsed, ${final ? "done" : `latest ${last}`}`);
  };
  const timer = setInterval(() => report(false), intervalMs);
  timer.unref();
  return {
    line(text) {
      const download = /^go: downloading (\S+)/.exec(text);
      if (download?.[1] !== undefined) {
        downloads++;
        last = download[1];
      } else if (/^[\w.-]+(\/[\w.~+-]+)*$/.test(text.trim())) {
        packages++;
        last = text.trim();
      }
    },
    done() {
      clearInterval(timer);
      report(true);
    },
  };
}
