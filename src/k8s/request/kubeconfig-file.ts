import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { CocoonError } from "../../errors.js";
import { httpsRequester, type SenderTLS } from "./https-sender.js";
import { parseKubeconfigYAML } from "./kubeconfig-yaml.js";
import type { KubeRequester } from "./kube-request.js";
import { tokenFile } from "./token-file.js";

/**
 * Options of {@link kubeconfigRequester}.
 *
 * @example
 * ```ts
 * const options: KubeconfigRequesterOptions = { path: "/etc/cocoon/kubeconfig", context: "admin@lab" };
 * ```
 */
export interface KubeconfigRequesterOptions {
  /** The kubeconfig file; by default the first path of `KUBECONFIG`, else `~/.kube/config`. */
  readonly path?: string | undefined;
  /** The context to use; the file's `current-context` by default. */
  readonly context?: string | undefined;
}

type Entry = Record<string, unknown>;

const named = (list: unknown, name: string, what: string, file: string): Entry => {
  const found = Array.isArray(list) ? (list as (Entry | null)[]).find((e) => e?.["name"] === name) : undefined;
  const value = found?.[what];
  if (typeof value !== "object" || value === null) {
    throw new CocoonError("ERR_KUBECONFIG", `${file}: no ${what} named ${JSON.stringify(name)}`);
  }
  return value as Entry;
};

const text = (entry: Entry, field: string, where: string): string | undefined => {
  const value = entry[field];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new CocoonError("ERR_KUBECONFIG", `${where}.${field} must be a string`);
  return value;
};

/**
 * A {@link KubeRequester} from a kubeconfig file, without `@kubernetes/client-node`: the current
 * (or given) context's cluster (`server`, `certificate-authority(-data)`, `insecure-skip-tls-verify`,
 * `tls-server-name`) and user, authenticated by a client certificate (`client-certificate(-data)`,
 * `client-key(-data)`), a `token`, or a `tokenFile` read again once a minute. Relative file paths are
 * read from the kubeconfig's directory. A file as kubectl and client-go write it (block YAML, plain and quoted
 * scalars) is read without the `yaml` package; `yaml` is loaded only for a file beyond that.
 *
 * @throws {@link CocoonError} `ERR_KUBECONFIG` for a file that cannot be read or parsed, a context,
 * cluster or user it lacks, or a user that authenticates another way (`exec`, `auth-provider`,
 * `username`), naming the field.
 * @example
 * ```ts
 * const requester = await kubeconfigRequester({ path: "/etc/cocoon/kubeconfig" });
 * const kept = await keepNode(requester, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
 * ```
 */
export async function kubeconfigRequester(options: KubeconfigRequesterOptions = {}): Promise<KubeRequester> {
  const file = options.path ?? process.env["KUBECONFIG"]?.split(path.delimiter).find(Boolean) ?? path.join(homedir(), ".kube", "config");
  let config: Entry;
  try {
    const text = await readFile(file, "utf8");
    // The `yaml` package only for what the kubeconfig subset reader leaves to it: loaded, it stays (about 13 MiB).
    config = (parseKubeconfigYAML(text) ?? (await import("yaml")).parse(text) ?? {}) as Entry;
  } catch (err) {
    throw new CocoonError("ERR_KUBECONFIG", `the kubeconfig ${file} cannot be read or parsed`, { cause: err });
  }
  const contextName = options.context ?? (config["current-context"] as string | undefined) ?? "";
  const context = named(config["contexts"], contextName, "context", file);
  const clusterName = text(context, "cluster", `${file}: context ${contextName}`) ?? "";
  const userName = text(context, "user", `${file}: context ${contextName}`) ?? "";
  const cluster = named(config["clusters"], clusterName, "cluster", file);
  const user = config["users"] === undefined && userName === "" ? {} : named(config["users"], userName, "user", file);
  const where = { cluster: `${file}: cluster ${clusterName}`, user: `${file}: user ${userName}` };
  for (const field of ["exec", "auth-provider", "username", "password"]) {
    if (user[field] !== undefined) {
      throw new CocoonError("ERR_KUBECONFIG", `${where.user}.${field} is not supported on this path: use a client certificate or a token`);
    }
  }
  const dir = path.dirname(file);
  const bytes = async (entry: Entry, dataField: string, fileField: string, at: string): Promise<Buffer | undefined> => {
    const data = text(entry, dataField, at);
    if (data !== undefined) return Buffer.from(data, "base64");
    const from = text(entry, fileField, at);
    if (from === undefined) return undefined;
    try {
      return await readFile(path.resolve(dir, from));
    } catch (err) {
      throw new CocoonError("ERR_KUBECONFIG", `${at}.${fileField} ${from} cannot be read`, { cause: err });
    }
  };
  const server = text(cluster, "server", where.cluster);
  if (server === undefined) throw new CocoonError("ERR_KUBECONFIG", `${where.cluster}.server is missing`);
  const tls: SenderTLS = {
    ca: await bytes(cluster, "certificate-authority-data", "certificate-authority", where.cluster),
    cert: await bytes(user, "client-certificate-data", "client-certificate", where.user),
    key: await bytes(user, "client-key-data", "client-key", where.user),
    servername: text(cluster, "tls-server-name", where.cluster),
    rejectUnauthorized: cluster["insecure-skip-tls-verify"] !== true,
  };
  const token = text(user, "token", where.user);
  const fromFile = token === undefined ? text(user, "tokenFile", where.user) : undefined;
  const reread = fromFile === undefined ? undefined : tokenFile(path.resolve(dir, fromFile));
  return httpsRequester({
    server,
    credentials: async () => {
      const bearer = token ?? (await reread?.());
      return { tls, headers: bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` } };
    },
  });
}
