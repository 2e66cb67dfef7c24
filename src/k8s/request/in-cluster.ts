import { readFileSync } from "node:fs";
import path from "node:path";
import { CocoonError } from "../../errors.js";
import { httpsRequester } from "./https-sender.js";
import type { KubeRequester } from "./kube-request.js";
import { tokenFile } from "./token-file.js";

/** Where a pod's service account credentials are mounted. */
const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * Options of {@link inClusterRequester}.
 *
 * @example
 * ```ts
 * const options: InClusterOptions = { dir: "/var/run/secrets/kubernetes.io/serviceaccount" };
 * ```
 */
export interface InClusterOptions {
  /** The service account directory (`token`, `ca.crt`); `/var/run/secrets/kubernetes.io/serviceaccount` by default. */
  readonly dir?: string | undefined;
  /** Where `KUBERNETES_SERVICE_HOST` and `KUBERNETES_SERVICE_PORT` are read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * A {@link KubeRequester} for a process running in a pod, as client-go's `rest.InClusterConfig`: the
 * server at `KUBERNETES_SERVICE_HOST`:`KUBERNETES_SERVICE_PORT`, verified with the mounted `ca.crt`,
 * and the mounted `token`, read again once a minute (a projected token rotates). Loads neither
 * `@kubernetes/client-node` nor `yaml`.
 *
 * @throws {@link CocoonError} `ERR_KUBECONFIG` when either variable is unset or the CA or token cannot be read.
 * @example
 * ```ts
 * const requester = inClusterRequester();
 * const pods = watchCocoonPods(requester, { fieldSelector: `spec.nodeName=${nodeName}`, signal });
 * ```
 */
export function inClusterRequester(options: InClusterOptions = {}): KubeRequester {
  const env = options.env ?? process.env;
  const dir = options.dir ?? SERVICE_ACCOUNT_DIR;
  const host = env["KUBERNETES_SERVICE_HOST"];
  const port = env["KUBERNETES_SERVICE_PORT"];
  if (!host || !port) {
    throw new CocoonError("ERR_KUBECONFIG", "not in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must both be set");
  }
  let ca: Buffer;
  try {
    ca = readFileSync(path.join(dir, "ca.crt"));
  } catch (err) {
    throw new CocoonError("ERR_KUBECONFIG", `the service account CA ${path.join(dir, "ca.crt")} cannot be read`, { cause: err });
  }
  const token = tokenFile(path.join(dir, "token"));
  const server = `https://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return httpsRequester({
    server,
    credentials: async () => ({ tls: { ca }, headers: { Authorization: `Bearer ${await token()}` } }),
  });
}
