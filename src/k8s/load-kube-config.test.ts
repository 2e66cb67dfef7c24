import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../errors.js";
import { loadKubeConfig } from "./load-kube-config.js";

let dir: string;
let home: string;
let sa: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cocoon-kubeconfig-"));
  home = path.join(dir, "home");
  sa = path.join(dir, "serviceaccount");
  mkdirSync(home);
  mkdirSync(sa);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

interface Entry {
  cluster?: [name: string, server: string, extra?: string];
  user?: [name: string, token: string];
  context?: [name: string, cluster: string, user: string];
}

/** Writes a kubeconfig with the given entries and returns its path. */
function kubeconfig(file: string, current: string | undefined, ...entries: Entry[]): string {
  const clusters = entries.flatMap((e) =>
    e.cluster ? [`- name: ${e.cluster[0]}\n  cluster:\n    server: ${e.cluster[1]}\n${e.cluster[2] ?? ""}`] : [],
  );
  const users = entries.flatMap((e) => (e.user ? [`- name: ${e.user[0]}\n  user:\n    token: ${e.user[1]}`] : []));
  const contexts = entries.flatMap((e) =>
    e.context ? [`- name: ${e.context[0]}\n  context:\n    cluster: ${e.context[1]}\n    user: ${e.context[2]}`] : [],
  );
  const text = [
    "apiVersion: v1",
    "kind: Config",
    current === undefined ? "" : `current-context: ${current}`,
    `clusters:\n${clusters.join("\n")}`,
    `users:\n${users.join("\n")}`,
    `contexts:\n${contexts.join("\n")}`,
  ].join("\n");
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const full = (name: string, server: string): Entry => ({
  cluster: [name, server],
  user: [name, `token-${name}`],
  context: [name, name, name],
});

/** Sets up a service-account directory. */
function serviceAccount(files: { token?: string; ca?: string; namespace?: string }): void {
  if (files.token !== undefined) writeFileSync(path.join(sa, "token"), files.token);
  if (files.ca !== undefined) writeFileSync(path.join(sa, "ca.crt"), files.ca);
  if (files.namespace !== undefined) writeFileSync(path.join(sa, "namespace"), files.namespace);
}
const IN_CLUSTER_ENV = { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" };

const load = (env: Record<string, string>) => loadKubeConfig({ env, homeDir: home, inClusterDir: sa });

/** Runs `fn` and returns what it threw. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}

describe("loadKubeConfig: $KUBECONFIG", () => {
  it("loads a single file", () => {
    const a = kubeconfig("a.yaml", "a", full("a", "https://a.example:6443"));
    const kc = load({ KUBECONFIG: a });
    expect(kc.getCurrentContext()).toBe("a");
    expect(kc.getCurrentCluster()?.server).toBe("https://a.example:6443");
    expect(kc.getCurrentUser()?.token).toBe("token-a");
  });

  it("merges a list first-wins per key, skipping missing files", () => {
    const missing = path.join(dir, "missing.yaml");
    const b = kubeconfig("b.yaml", undefined, full("shared", "https://from-b"), full("b", "https://b"));
    const c = kubeconfig("c.yaml", "shared", full("shared", "https://from-c"), full("c", "https://c"));
    const kc = load({ KUBECONFIG: [missing, b, c].join(path.delimiter) });
    expect(kc.getCurrentContext()).toBe("shared"); // b sets none, so c's applies
    expect(kc.getCurrentCluster()?.server).toBe("https://from-b");
    expect(kc.getCurrentUser()?.token).toBe("token-shared");
    expect(kc.getClusters().map((x) => [x.name, x.server])).toEqual([
      ["shared", "https://from-b"],
      ["b", "https://b"],
      ["c", "https://c"],
    ]);
    expect(kc.getContexts().map((x) => x.name)).toEqual(["shared", "b", "c"]);
  });

  it("takes current-context from the first file that sets it", () => {
    const a = kubeconfig("a.yaml", "a", full("a", "https://a"));
    const b = kubeconfig("b.yaml", "b", full("b", "https://b"));
    expect(load({ KUBECONFIG: `${a}${path.delimiter}${b}` }).getCurrentContext()).toBe("a");
    expect(load({ KUBECONFIG: `${b}${path.delimiter}${a}` }).getCurrentContext()).toBe("b");
  });

  it("reads a duplicated path once and ignores empty entries", () => {
    const a = kubeconfig("a.yaml", "a", full("a", "https://a"));
    const kc = load({ KUBECONFIG: [a, "", a].join(path.delimiter) });
    expect(kc.getClusters()).toHaveLength(1);
  });

  it("resolves relative certificate paths against the file's directory", () => {
    const a = kubeconfig("nested/a.yaml", "a", {
      cluster: ["a", "https://a", "    certificate-authority: certs/ca.crt\n"],
      context: ["a", "a", "a"],
    });
    expect(load({ KUBECONFIG: a }).getCurrentCluster()?.caFile).toBe(path.join(dir, "nested", "certs", "ca.crt"));
  });

  it("drops invalid entries that are not in use", () => {
    const a = kubeconfig("a.yaml", "a", full("a", "https://a"), { cluster: ["broken", ""] });
    expect(
      load({ KUBECONFIG: a })
        .getClusters()
        .map((c) => c.name),
    ).toEqual(["a"]);
  });

  it("does not read ~/.kube/config when $KUBECONFIG is set", () => {
    kubeconfig("home/.kube/config", "h", full("h", "https://home"));
    const err = thrown(() => load({ KUBECONFIG: path.join(dir, "nope.yaml") }));
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
    expect(err.message).toContain(`$KUBECONFIG=${path.join(dir, "nope.yaml")}: missing;`);
  });

  it("reads process.env by default", () => {
    const a = kubeconfig("a.yaml", "a", full("a", "https://from-process-env"));
    vi.stubEnv("KUBECONFIG", a);
    expect(loadKubeConfig().getCurrentCluster()?.server).toBe("https://from-process-env");
  });
});

describe("loadKubeConfig: ~/.kube/config", () => {
  it.each([
    ["KUBECONFIG unset", {}],
    ["KUBECONFIG empty", { KUBECONFIG: "" }],
  ])("is used when %s", (_name, env) => {
    kubeconfig("home/.kube/config", "h", full("h", "https://home"));
    expect(load(env).getCurrentCluster()?.server).toBe("https://home");
  });

  it("wins over a possible in-cluster config", () => {
    kubeconfig("home/.kube/config", "h", full("h", "https://home"));
    serviceAccount({ token: "sa-token" });
    expect(load(IN_CLUSTER_ENV).getCurrentCluster()?.server).toBe("https://home");
  });
});

describe("loadKubeConfig: in-cluster", () => {
  it("builds client-go's in-cluster config", async () => {
    serviceAccount({ token: "sa-token", ca: "CA", namespace: "team-a\n" });
    const kc = load(IN_CLUSTER_ENV);
    expect(kc.getCurrentCluster()).toEqual({
      name: "inCluster",
      server: "https://10.0.0.1:443",
      skipTLSVerify: false,
      caFile: path.join(sa, "ca.crt"),
    });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe("team-a");
    const opts: { headers?: Record<string, string> } = {};
    await kc.applyToHTTPSOptions(opts);
    expect(opts.headers?.["Authorization"]).toBe("Bearer sa-token");
  });

  it.each([
    ["IPv6 host is bracketed", { KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "443" }, "https://[fd00::1]:443"],
    [
      "port 8080 still uses https, like client-go",
      { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "8080" },
      "https://10.0.0.1:8080",
    ],
  ])("%s", (_name, env, server) => {
    serviceAccount({ token: "t" });
    const kc = load(env);
    expect(kc.getCurrentCluster()?.server).toBe(server);
    expect(kc.getCurrentCluster()?.caFile).toBeUndefined();
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBeUndefined();
  });

  it("prefers POD_NAMESPACE over the namespace file", () => {
    serviceAccount({ token: "t", namespace: "from-file" });
    const kc = load({ ...IN_CLUSTER_ENV, POD_NAMESPACE: "from-env" });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe("from-env");
  });

  it.each([
    ["no current-context", undefined],
    ["a current context whose cluster has no server", "x"],
  ])("is used when the file config has %s", (_name, current) => {
    kubeconfig("home/.kube/config", current, { context: ["x", "gone", "u"] }, full("h", "https://home"));
    serviceAccount({ token: "t" });
    expect(load(IN_CLUSTER_ENV).getCurrentCluster()?.server).toBe("https://10.0.0.1:443");
  });

  it("is used when every $KUBECONFIG file is missing", () => {
    serviceAccount({ token: "t" });
    expect(load({ ...IN_CLUSTER_ENV, KUBECONFIG: path.join(dir, "nope") }).getCurrentContext()).toBe("inClusterContext");
  });
});

describe("loadKubeConfig: errors", () => {
  it("names everything it tried", () => {
    const err = thrown(() => load({}));
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
    expect(err.message).toBe(
      `no usable kubeconfig: ${path.join(home, ".kube", "config")}: missing; in-cluster: ` +
        `KUBERNETES_SERVICE_HOST unset, KUBERNETES_SERVICE_PORT unset, ${path.join(sa, "token")} missing. ` +
        "Set KUBECONFIG, create ~/.kube/config, or run in a pod with a service account token",
    );
  });

  it("lists a $KUBECONFIG list and why the merged config is empty", () => {
    const a = kubeconfig("a.yaml", undefined, full("a", "https://a"));
    const list = [path.join(dir, "gone.yaml"), a].join(path.delimiter);
    const err = thrown(() => load({ KUBECONFIG: list, KUBERNETES_SERVICE_HOST: "10.0.0.1" }));
    expect(err.message).toBe(
      `no usable kubeconfig: $KUBECONFIG=${list}: no current-context; in-cluster: ` +
        `KUBERNETES_SERVICE_PORT unset, ${path.join(sa, "token")} missing. ` +
        "Set KUBECONFIG, create ~/.kube/config, or run in a pod with a service account token",
    );
  });

  it("says when no file of a list exists", () => {
    const list = ["x", "y"].map((f) => path.join(dir, f)).join(path.delimiter);
    expect(thrown(() => load({ KUBECONFIG: list })).message).toContain(`$KUBECONFIG=${list}: no file exists;`);
  });

  it("never falls back to localhost:8080", () => {
    expect(thrown(() => load({})).message).not.toContain("localhost");
  });

  it("rejects a token path that is a directory", () => {
    mkdirSync(path.join(sa, "token"));
    expect(thrown(() => load(IN_CLUSTER_ENV)).message).toContain(`${path.join(sa, "token")} missing`);
  });

  it("throws when current-context names no context, without trying in-cluster", () => {
    const a = kubeconfig("a.yaml", "nope", full("a", "https://a"));
    serviceAccount({ token: "t" });
    const err = thrown(() => load({ ...IN_CLUSTER_ENV, KUBECONFIG: a }));
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
    expect(err.message).toBe('kubeconfig: context "nope" not found');
  });

  it("throws on a file that is not valid YAML, keeping the cause", () => {
    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, "clusters: [unclosed\n");
    const err = thrown(() => load({ KUBECONFIG: bad }));
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
    expect(err.message.startsWith(`parse kubeconfig ${bad}: `)).toBe(true);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("throws on a path that is a directory", () => {
    const err = thrown(() => load({ KUBECONFIG: dir }));
    expect(isCocoonError(err, "ERR_KUBECONFIG")).toBe(true);
    expect(err.message.startsWith(`read kubeconfig ${dir}: `)).toBe(true);
  });

  it("reads a blank or comment-only file as an empty config", () => {
    const blank = path.join(dir, "blank.yaml");
    writeFileSync(blank, "# nothing here\n---\n\n");
    const a = kubeconfig("a.yaml", "a", full("a", "https://a"));
    expect(load({ KUBECONFIG: [blank, a].join(path.delimiter) }).getCurrentContext()).toBe("a");
    expect(thrown(() => load({ KUBECONFIG: blank })).message).toContain(": no current-context;");
  });
});
