import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { acquireBuildLock } from "./build-lock.js";
import { ensureControlPlaneBinaries } from "./control-plane-binaries.js";

describe("ensureControlPlaneBinaries", () => {
  let dir: string;
  let assets: string;
  const noLog = (): void => {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-binaries-test-"));
    assets = join(dir, "assets");
    await mkdir(assets);
    for (const name of ["etcd", "kube-apiserver"]) {
      await writeFile(join(assets, name), "#!/bin/sh\n");
      await chmod(join(assets, name), 0o755);
    }
    await writeFile(join(dir, "plain-file"), "");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("uses TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER first", async () => {
    const env = {
      TEST_ASSET_ETCD: join(assets, "etcd"),
      TEST_ASSET_KUBE_APISERVER: join(assets, "kube-apiserver"),
      KUBEBUILDER_ASSETS: join(dir, "elsewhere"),
    };
    await expect(ensureControlPlaneBinaries({ env, log: noLog })).resolves.toEqual({
      etcd: join(assets, "etcd"),
      kubeApiserver: join(assets, "kube-apiserver"),
      source: "env",
    });
  });

  it("uses $KUBEBUILDER_ASSETS/{etcd,kube-apiserver} next", async () => {
    await expect(ensureControlPlaneBinaries({ env: { KUBEBUILDER_ASSETS: assets }, log: noLog })).resolves.toEqual({
      etcd: join(assets, "etcd"),
      kubeApiserver: join(assets, "kube-apiserver"),
      source: "env",
    });
  });

  it.each([
    ["only one variable", { TEST_ASSET_ETCD: "/x/etcd" }, "set both TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER"],
    ["a missing file", { KUBEBUILDER_ASSETS: "/nonexistent" }, "/nonexistent/etcd (from KUBEBUILDER_ASSETS) is not an executable file"],
  ])("refuses %s", async (_name, env, message) => {
    const err = await ensureControlPlaneBinaries({ env, log: noLog }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toContain(message);
  });

  it("refuses a file that is not executable", async () => {
    const env = { TEST_ASSET_ETCD: join(dir, "plain-file"), TEST_ASSET_KUBE_APISERVER: join(assets, "kube-apiserver") };
    await expect(ensureControlPlaneBinaries({ env, log: noLog })).rejects.toThrow(
      /plain-file \(from TEST_ASSET_ETCD\) is not an executable file/,
    );
  });

  it("fails before taking the lock and before announcing a build when downloads are off and there is no go", async () => {
    const lines: string[] = [];
    const cacheDir = join(dir, "nogo", "v1.35.4");
    await mkdir(join(dir, "nogo"));
    const release = await acquireBuildLock(`${cacheDir}.lock`); // another builder holds the lock
    const started = Date.now();
    const err = await ensureControlPlaneBinaries({
      env: { PATH: join(dir, "empty-path"), COCOON_CONTROLPLANE_DOWNLOAD_URL: "off" },
      cacheDir,
      log: (l) => lines.push(l),
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000); // the lock poll is 1 s: it never waited
    await release();
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe(
      "cannot get etcd and kube-apiserver v1.35.4: downloads are off (COCOON_CONTROLPLANE_DOWNLOAD_URL=off), and `go` is not " +
        "on PATH to build them. Install Go >= 1.25, point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, " +
        "or point TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries.",
    );
    expect(lines).toEqual([]);
    expect(await readdir(join(dir, "nogo"))).toEqual([]);
  });

  it("downloads or builds the release COCOON_KUBERNETES_VERSION names, into its own cache folder", async () => {
    const bin = join(dir, "fake-go-bin"); // a `go` that reports a version and then fails, to stop the build early
    await mkdir(bin, { recursive: true });
    await writeFile(
      join(bin, "go"),
      '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.26.8 linux/amd64"; exit 0; }\necho "no module proxy here" >&2\nexit 1\n',
    );
    await chmod(join(bin, "go"), 0o755);
    const root = join(dir, "by-version");
    const lines: string[] = [];
    const env = { PATH: bin, COCOON_CONTROLPLANE_DOWNLOAD_URL: "off", COCOON_CONTROLPLANE_CACHE: root, COCOON_KUBERNETES_VERSION: "1.37" };
    const err = await ensureControlPlaneBinaries({ env, log: (l) => lines.push(l) }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      '"go mod download -json k8s.io/kubernetes@v1.37.2" failed with exit status 1:\nno module proxy here',
    );
    expect(lines[0]).toBe(`building etcd and kube-apiserver v1.37.2 into ${join(root, "v1.37.2")}`);
    const explicit = await ensureControlPlaneBinaries({ env, kubernetesVersion: "v1.36.3", log: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).not.toBe((explicit as Error).message);
    expect((explicit as Error).message).toContain("k8s.io/kubernetes@v1.36.3");
    expect(await readdir(root)).toEqual([]);
  });
});
