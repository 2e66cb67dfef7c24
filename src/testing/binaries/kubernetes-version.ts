import { CocoonError } from "../../errors.js";
import { runCommand } from "./run-command.js";
import { KUBERNETES_VERSION, KUBERNETES_VERSIONS } from "./versions.js";

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

/** The `k8s.io/*` staging modules' version of a Kubernetes release: `v1.36.3` → `v0.36.3`. @internal */
export function stagingVersionOf(version: string): string {
  return version.replace(/^v1\./, "v0.");
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
