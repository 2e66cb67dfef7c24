import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import {
  COMPONENT_DOWNLOAD_URL,
  downloadBaseFrom,
  envtestArchive,
  kubernetesRelease,
  KUBERNETES_VERSION,
  KUBERNETES_VERSIONS,
  kubernetesVersionFrom,
  kubernetesVersionOf,
  REGISTRY_ARCHIVE_SHA256,
  REGISTRY_DOWNLOAD_URL,
  registryArchive,
} from "./versions.js";

describe("kubernetesVersionFrom", () => {
  it("is the newest patch of 1.35, 1.36 and 1.37, 1.35 by default", () => {
    expect(KUBERNETES_VERSIONS).toEqual(["v1.35.4", "v1.36.3", "v1.37.2"]);
    expect(KUBERNETES_VERSION).toBe("v1.35.4");
    expect(kubernetesVersionFrom({})).toBe("v1.35.4");
    expect(kubernetesVersionFrom({ COCOON_KUBERNETES_VERSION: " " })).toBe("v1.35.4");
  });

  it.each([
    ["v1.36.3", "v1.36.3"],
    ["1.36.3", "v1.36.3"],
    ["1.36", "v1.36.3"],
    ["v1.37", "v1.37.2"],
    ["1.35", "v1.35.4"],
  ])("reads COCOON_KUBERNETES_VERSION=%s as %s", (value, version) => {
    expect(kubernetesVersionFrom({ COCOON_KUBERNETES_VERSION: value })).toBe(version);
  });

  it.each(["1.34", "v1.36.1", "1.3", "1.360", "latest"])("refuses %s, naming the releases it supports", (value) => {
    let err: unknown;
    try {
      kubernetesVersionFrom({ COCOON_KUBERNETES_VERSION: value });
    } catch (e) {
      err = e;
    }
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe(
      `COCOON_KUBERNETES_VERSION=${value} is not a supported Kubernetes release; use one of v1.35.4, v1.36.3, v1.37.2 or its minor (1.36)`,
    );
  });
});

describe("kubernetesVersionOf", () => {
  let dir: string;
  const binary = async (name: string, script: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${script}\n`);
    await chmod(path, 0o755);
    return path;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-version-of-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads the release from `--version`, as kube-apiserver and kube-scheduler print it", async () => {
    expect(await kubernetesVersionOf(await binary("apiserver", '[ "$1" = --version ] && echo "Kubernetes v1.36.3"'))).toBe("v1.36.3");
    expect(await kubernetesVersionOf(await binary("pre", 'echo "Kubernetes v1.37.0-rc.1"'))).toBe("v1.37.0-rc.1");
  });

  it("refuses output that names no release", async () => {
    const path = await binary("etcd", 'echo "etcd Version: 3.6.5"');
    const err = await kubernetesVersionOf(path).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe(`${path} --version printed no Kubernetes release: "etcd Version: 3.6.5"`);
  });
});

describe("envtestArchive", () => {
  it.each([
    ["linux", "x64", "envtest-v1.35.4-linux-amd64.tar.gz"],
    ["darwin", "arm64", "envtest-v1.35.4-darwin-arm64.tar.gz"],
    ["win32", "x64", "envtest-v1.35.4-windows-amd64.tar.gz"],
    ["linux", "ppc64", "envtest-v1.35.4-linux-ppc64le.tar.gz"],
  ] as const)("%s/%s is %s, checked against its .sha512, holding etcd and kube-apiserver", (platform, arch, name) => {
    expect(envtestArchive("https://mirror.example/envtest/", "v1.35.4", platform, arch)).toEqual({
      name,
      url: `https://mirror.example/envtest/envtest-v1.35.4/${name}`,
      digest: "sha512",
      unpack: ["etcd", "kube-apiserver"],
    });
  });

  it("has nothing for a platform envtest does not publish", () => {
    expect(["freebsd/x64", "linux/ia32", "linux/riscv64"].map((p) => envtestArchive("https://m", "v1.35.4", ...split(p)))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("kubernetesRelease", () => {
  it("names dl.k8s.io's layout for each Linux CPU: the binary itself, checked against its .sha256", () => {
    expect(kubernetesRelease(`${COMPONENT_DOWNLOAD_URL}/`, "v1.36.3", "kube-scheduler", "linux", "arm64")).toEqual({
      name: "kube-scheduler",
      url: "https://dl.k8s.io/release/v1.36.3/bin/linux/arm64/kube-scheduler",
      digest: "sha256",
    });
    expect(kubernetesRelease(COMPONENT_DOWNLOAD_URL, "v1.35.4", "kube-controller-manager", "linux", "x64")?.url).toBe(
      "https://dl.k8s.io/release/v1.35.4/bin/linux/amd64/kube-controller-manager",
    );
  });

  it("has nothing outside Linux or for a CPU Kubernetes does not build", () => {
    expect(
      ["darwin/arm64", "linux/ia32", "linux/riscv64"].map((p) => kubernetesRelease("", "v1.35.4", "kube-scheduler", ...split(p))),
    ).toEqual([undefined, undefined, undefined]);
  });
});

describe("registryArchive", () => {
  it.each([
    ["x64", "amd64"],
    ["arm64", "arm64"],
    ["ppc64", "ppc64le"],
    ["s390x", "s390x"],
    ["riscv64", "riscv64"],
  ] as const)("upstream, linux/%s is the %s archive with its pinned SHA-256", (arch, cpu) => {
    const name = `registry_3.1.2_linux_${cpu}.tar.gz`;
    expect(registryArchive(`${REGISTRY_DOWNLOAD_URL}/`, "v3.1.2", "linux", arch)).toEqual({
      name,
      url: `${REGISTRY_DOWNLOAD_URL}/v3.1.2/${name}`,
      digest: "sha256",
      unpack: ["registry"],
      pinned: REGISTRY_ARCHIVE_SHA256[cpu],
    });
  });

  it("pins the amd64 SHA-256 the v3.1.2 release publishes", () => {
    expect(REGISTRY_ARCHIVE_SHA256.amd64).toBe("40df2224d410f72ae425c3371873b078bbdbda3b8b612be9571f0e6751f3acc8");
  });

  it("reads a mirror's checksum from its .sha256, and pins nothing for another version", () => {
    expect(registryArchive("https://mirror.example/registry", "v3.1.2", "linux", "x64")).toEqual({
      name: "registry_3.1.2_linux_amd64.tar.gz",
      url: "https://mirror.example/registry/v3.1.2/registry_3.1.2_linux_amd64.tar.gz",
      digest: "sha256",
      unpack: ["registry"],
    });
    expect(registryArchive(REGISTRY_DOWNLOAD_URL, "v3.0.0", "linux", "x64")?.pinned).toBeUndefined();
  });

  it("has nothing outside Linux or for a CPU the release does not build", () => {
    expect(["darwin/arm64", "win32/x64", "linux/ia32"].map((p) => registryArchive(REGISTRY_DOWNLOAD_URL, "v3.1.2", ...split(p)))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("downloadBaseFrom", () => {
  it.each([
    [{}, REGISTRY_DOWNLOAD_URL],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: "" }, REGISTRY_DOWNLOAD_URL],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: " " }, REGISTRY_DOWNLOAD_URL],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: " http://127.0.0.1:1/m " }, "http://127.0.0.1:1/m"],
    [{ COCOON_REGISTRY_DOWNLOAD_URL: "off" }, undefined],
    [{ COCOON_CONTROLPLANE_DOWNLOAD_URL: "off" }, REGISTRY_DOWNLOAD_URL],
  ])("%j gives %s", (env, base) => {
    expect(downloadBaseFrom(env, "COCOON_REGISTRY_DOWNLOAD_URL", REGISTRY_DOWNLOAD_URL)).toBe(base);
  });
});

/** `linux/x64` as the platform and arch arguments. */
function split(platformArch: string): [NodeJS.Platform, NodeJS.Architecture] {
  const [platform, arch] = platformArch.split("/");
  return [platform as NodeJS.Platform, arch as NodeJS.Architecture];
}
