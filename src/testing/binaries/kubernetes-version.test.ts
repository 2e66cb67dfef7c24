import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kubernetesVersionFrom, kubernetesVersionOf, stagingVersionOf } from "./kubernetes-version.js";
import { KUBERNETES_VERSION, KUBERNETES_VERSIONS } from "./versions.js";

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

describe("stagingVersionOf", () => {
  it.each(KUBERNETES_VERSIONS.map((v) => [v, v.replace("v1.", "v0.")]))("%s → %s", (version, staging) => {
    expect(stagingVersionOf(version)).toBe(staging);
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
