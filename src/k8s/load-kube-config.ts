// Kubeconfig discovery with client-go's rules (Go's `LoadConfig`).
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { type Cluster, type ConfigOptions, type Context, KubeConfig, type User } from "@kubernetes/client-node";
import { CocoonError } from "../errors.js";

/** A read-only view of environment variables, like `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Options of {@link loadKubeConfig}; the defaults read the real process environment.
 *
 * @example
 * ```ts
 * const options: LoadKubeConfigOptions = { env: { KUBECONFIG: "/etc/cocoon/kubeconfig" } };
 * const kubeConfig = loadKubeConfig(options); // that file only: no ~/.kube/config, no in-cluster fallback before it
 * ```
 */
export interface LoadKubeConfigOptions {
  /** Environment to read `KUBECONFIG`, `KUBERNETES_SERVICE_HOST/PORT` and `POD_NAMESPACE` from; defaults to `process.env`. */
  env?: Env | undefined;
  /** Home directory holding `.kube/config`; defaults to `os.homedir()`. */
  homeDir?: string | undefined;
  /** Service-account directory; defaults to `/var/run/secrets/kubernetes.io/serviceaccount`. */
  inClusterDir?: string | undefined;
}

const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
/** Invalid entries are dropped, not fatal: like client-go, only the entries in use must be valid. */
const PARSE_OPTIONS: Partial<ConfigOptions> = { onInvalidEntry: "filter" };

const isFile = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
/** Empty, or only comments and document markers: client-go reads it as an empty config. */
const isBlankYaml = (text: string): boolean => text.split(/\r?\n/).every((l) => /^\s*(#.*)?$|^(---|\.\.\.)\s*$/.test(l));
const fail = (message: string, cause?: unknown): CocoonError =>
  new CocoonError("ERR_KUBECONFIG", message, cause === undefined ? undefined : { cause });

/** Reads one kubeconfig file; `undefined` when it does not exist (client-go skips those). */
function readKubeConfigFile(file: string): KubeConfig | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw fail(`read kubeconfig ${file}: ${(err as Error).message}`, err);
  }
  const kc = new KubeConfig();
  if (isBlankYaml(text)) return kc;
  try {
    kc.loadFromString(text, PARSE_OPTIONS);
  } catch (err) {
    throw fail(`parse kubeconfig ${file}: ${(err as Error).message}`, err);
  }
  kc.makePathsAbsolute(path.dirname(file));
  return kc;
}

/** Merges configs with client-go's precedence: the first file to define a name, or the current context, wins. */
function merge(configs: readonly KubeConfig[]): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = "";
  for (const kc of configs) {
    for (const c of kc.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of kc.getUsers()) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of kc.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined in a kubeconfig without current-context
    currentContext ||= kc.getCurrentContext() ?? "";
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return merged;
}

/** Why the merged config is empty (client-go's `ErrEmptyConfig`), or `undefined` when it is usable. */
function emptyReason(kc: KubeConfig): string | undefined {
  const name = kc.getCurrentContext() as string | undefined;
  if (!name) return "no current-context";
  const context = kc.getContextObject(name);
  // A current-context that names no context is an error in client-go, not an empty config.
  if (!context) throw fail(`kubeconfig: context "${name}" not found`);
  if (!kc.getCluster(context.cluster)?.server) return `context "${name}" has no cluster with a server`;
  return undefined;
}

/** Builds client-go's in-cluster config, or returns why it is not possible. */
function inClusterConfig(env: Env, dir: string): KubeConfig | string {
  const host = env["KUBERNETES_SERVICE_HOST"];
  const port = env["KUBERNETES_SERVICE_PORT"];
  const tokenFile = path.join(dir, "token");
  const missing = [
    ...(host ? [] : ["KUBERNETES_SERVICE_HOST unset"]),
    ...(port ? [] : ["KUBERNETES_SERVICE_PORT unset"]),
    ...(isFile(tokenFile) ? [] : [`${tokenFile} missing`]),
  ];
  if (!host || !port || missing.length > 0) return missing.join(", ");
  try {
    readFileSync(tokenFile);
  } catch (err) {
    throw fail(`read service account token ${tokenFile}: ${(err as Error).message}`, err);
  }
  const caFile = path.join(dir, "ca.crt");
  const namespaceFile = path.join(dir, "namespace");
  const namespace = env["POD_NAMESPACE"] || (isFile(namespaceFile) ? readFileSync(namespaceFile, "utf8").trim() : "");
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: "inCluster",
        // client-go always uses https here (client-node picks http for ports 80, 8080 and 8001).
        server: `https://${host.includes(":") ? `[${host}]` : host}:${port}`,
        skipTLSVerify: false,
        ...(isFile(caFile) ? { caFile } : {}),
      },
    ],
    // client-node's FileAuth re-reads the token file every minute, so rotated tokens are picked up.
    users: [{ name: "inClusterUser", authProvider: { name: "tokenFile", config: { tokenFile } } }],
    contexts: [{ name: "inClusterContext", cluster: "inCluster", user: "inClusterUser", ...(namespace ? { namespace } : {}) }],
    currentContext: "inClusterContext",
  });
  return kc;
}

/**
 * Loads the Kubernetes client configuration the way client-go's default loading rules do.
 *
 * 1. `$KUBECONFIG`, a list separated by `path.delimiter` (`:`; `;` on Windows): every file that
 *    exists is read and merged, the first file to define a cluster, user, context or
 *    `current-context` winning; missing files are skipped. When `$KUBECONFIG` is set,
 *    `~/.kube/config` is not read.
 * 2. Otherwise `~/.kube/config`.
 * 3. When that gives no usable config (no `current-context`, or its cluster has no server), the
 *    in-cluster config: `KUBERNETES_SERVICE_HOST`/`PORT` plus the service-account token
 *    (re-read as it rotates) and CA.
 * 4. Otherwise it throws `ERR_KUBECONFIG` naming everything it tried. It never falls back to
 *    `http://localhost:8080` (client-node's `loadFromDefault` does).
 *
 * Relative certificate paths are resolved against the file that names them. A file that cannot
 * be read or parsed, or a `current-context` naming no context, throws `ERR_KUBECONFIG` too.
 *
 * @example
 * ```ts
 * const kc = loadKubeConfig();
 * const core = kc.makeApiClient(CoreV1Api);
 * ```
 */
export function loadKubeConfig(options: LoadKubeConfigOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const list = env["KUBECONFIG"];
  const homeFile = path.join(options.homeDir ?? homedir(), ".kube", "config");
  const files = list ? [...new Set(list.split(path.delimiter).filter(Boolean))] : [homeFile];
  const configs = files.flatMap((f) => readKubeConfigFile(path.resolve(f)) ?? []);

  const merged = merge(configs);
  const fileProblem = configs.length > 0 ? emptyReason(merged) : files.length === 1 ? "missing" : "no file exists";
  if (fileProblem === undefined) return merged;

  const inCluster = inClusterConfig(env, options.inClusterDir ?? SERVICE_ACCOUNT_DIR);
  if (typeof inCluster !== "string") return inCluster;

  const source = list ? `$KUBECONFIG=${list}` : homeFile;
  throw fail(
    `no usable kubeconfig: ${source}: ${fileProblem}; in-cluster: ${inCluster}. ` +
      "Set KUBECONFIG, create ~/.kube/config, or run in a pod with a service account token",
  );
}
