/**
 * Each auth mode of `OCIRegistry` against the real registry: htpasswd basic auth, bearer tokens
 * from a token issuer (cached per scope), docker `config.json` (`auths` and a credential helper),
 * and the failures: no credentials, wrong ones, and credentials that may not do the operation.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerConfigCredentials, hasHibernateSnapshot, OCIRegistry, staticCredentials } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { chunked, manifestFor, OCI_MANIFEST, rejectionOf, startTestRegistry, testBlob } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

const blob = testBlob(2048, 3);

describe("htpasswd basic auth", () => {
  let registry: TestRegistry;
  let proxy: RegistryProxy;
  beforeAll(async () => {
    registry = await startTestRegistry({ auth: "htpasswd" });
    proxy = await startRegistryProxy(registry.host);
  });
  afterAll(async () => {
    await proxy.close();
    await registry.stop();
  });

  it("answers the challenge once, then sends the credentials up front: 1 HEAD per probe", async () => {
    const credentials = registry.credentials ?? { username: "", password: "" };
    const oci = new OCIRegistry(proxy.host, { credentials: staticCredentials({ [proxy.host]: credentials }) });
    await oci.putBlob("vm-basic", blob.digest, chunked(blob.bytes), blob.bytes.length);
    proxy.reset();
    expect(await oci.hasBlob("vm-basic", blob.digest)).toBe(true);
    expect(await hasHibernateSnapshot(oci, "vm-basic")).toBe(false);
    expect(proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["HEAD 200", "HEAD 404"]);
    expect(credentials.username).toBe("docker");
  });

  it.each([
    ["no credentials", undefined],
    ["a wrong password", { username: "docker", password: "wrong" }],
  ])("refuses %s with ERR_REGISTRY_UNAUTHORIZED (401), never 'absent'", async (_name, credentials) => {
    const oci = new OCIRegistry(registry.host, credentials ? { credentials: staticCredentials({ [registry.host]: credentials }) } : {});
    const err = await rejectionOf(hasHibernateSnapshot(oci, "vm-basic"));
    expect([err.code, err.status, err.message]).toEqual([
      "ERR_REGISTRY_UNAUTHORIZED",
      401,
      "probe hibernate snapshot vm-basic: head manifest vm-basic:hibernate: unexpected status code 401 Unauthorized",
    ]);
  });
});

describe("bearer token auth", () => {
  let registry: TestRegistry;
  let proxy: RegistryProxy;
  const users = {
    kubelet: { password: "kubelet-secret" },
    reader: { password: "reader-secret", actions: ["pull"] },
    nobody: { password: "nobody-secret", actions: [] },
  };
  const client = (user: keyof typeof users): OCIRegistry =>
    new OCIRegistry(proxy.host, { credentials: staticCredentials({ [proxy.host]: { username: user, password: users[user].password } }) });
  beforeAll(async () => {
    registry = await startTestRegistry({ auth: "token", users });
    proxy = await startRegistryProxy(registry.host);
  });
  afterAll(async () => {
    await proxy.close();
    await registry.stop();
  });

  it("fetches one token per scope and then probes with 1 HEAD and no token request", async () => {
    const oci = client("kubelet");
    const tokensBefore = registry.tokenRequests;
    expect(await hasHibernateSnapshot(oci, "vm-token")).toBe(false); // 401 challenge, token, HEAD again
    expect(registry.tokenRequests - tokensBefore).toBe(1);
    proxy.reset();
    for (let i = 0; i < 5; i++) expect(await hasHibernateSnapshot(oci, "vm-token")).toBe(false);
    expect(proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(Array(5).fill("HEAD 404"));
    expect(registry.tokenRequests - tokensBefore).toBe(1);
    await oci.putBlob("vm-token", blob.digest, chunked(blob.bytes), blob.bytes.length); // a push scope: one more token
    await oci.putManifest("vm-token", "hibernate", manifestFor(blob), OCI_MANIFEST);
    expect(registry.tokenRequests - tokensBefore).toBe(2);
    expect(await hasHibernateSnapshot(oci, "vm-token")).toBe(true);
    expect(oci.requestCounts.token).toBe(2);
  });

  it("reports a token refused for bad credentials as ERR_REGISTRY_UNAUTHORIZED", async () => {
    const oci = new OCIRegistry(proxy.host, {
      credentials: staticCredentials({ [proxy.host]: { username: "kubelet", password: "nope" } }),
    });
    const err = await rejectionOf(oci.hasManifest("vm-token", "hibernate"));
    expect([err.code, err.status]).toEqual(["ERR_REGISTRY_UNAUTHORIZED", 401]);
  });

  it("reports a user denied by the token issuer as ERR_REGISTRY_FORBIDDEN (403)", async () => {
    const err = await rejectionOf(client("nobody").hasManifest("vm-token", "hibernate"));
    expect([err.code, err.status]).toEqual(["ERR_REGISTRY_FORBIDDEN", 403]);
  });

  it("reports a token without the push action as ERR_REGISTRY_FORBIDDEN (insufficient_scope), and reads still work", async () => {
    const reader = client("reader");
    expect(await reader.hasManifest("vm-token", "hibernate")).toBe(true);
    const push = await rejectionOf(reader.putManifest("vm-token", "other", manifestFor(blob), OCI_MANIFEST));
    const del = await rejectionOf(reader.deleteManifest("vm-token", "hibernate"));
    expect([push.code, push.status, del.code]).toEqual(["ERR_REGISTRY_FORBIDDEN", 401, "ERR_REGISTRY_FORBIDDEN"]);
    expect(await reader.hasManifest("vm-token", "hibernate")).toBe(true);
  });

  describe("docker config.json", () => {
    let dir: string;
    const path = process.env.PATH;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "cocoon-docker-config-"));
      // A credential helper speaking the helper binary protocol: server on stdin, JSON on stdout.
      const helper = join(dir, "docker-credential-cocoontest");
      const answer = JSON.stringify({ ServerURL: proxy.host, Username: "kubelet", Secret: "kubelet-secret" });
      await writeFile(
        helper,
        `#!/bin/sh\nread server\n[ "$server" = "${proxy.host}" ] || { echo "credentials not found in native keychain"; exit 1; }\necho '${answer}'\n`,
      );
      await chmod(helper, 0o755);
      process.env.PATH = `${dir}:${path ?? ""}`;
    });
    afterAll(async () => {
      process.env.PATH = path;
      await rm(dir, { recursive: true, force: true });
    });

    it("uses auths[host].auth (base64 user:password)", async () => {
      const auth = Buffer.from("kubelet:kubelet-secret").toString("base64");
      await writeFile(join(dir, "config.json"), JSON.stringify({ auths: { [`http://${proxy.host}/v2/`]: { auth } } }));
      const oci = new OCIRegistry(proxy.host, { credentials: dockerConfigCredentials({ path: join(dir, "config.json") }) });
      expect(await oci.hasManifest("vm-token", "hibernate")).toBe(true);
    });

    it("runs credHelpers[host] through the helper binary protocol", async () => {
      await writeFile(join(dir, "helper.json"), JSON.stringify({ auths: {}, credHelpers: { [proxy.host]: "cocoontest" } }));
      const oci = new OCIRegistry(proxy.host, { credentials: dockerConfigCredentials({ path: join(dir, "helper.json") }) });
      expect(await oci.hasManifest("vm-token", "hibernate")).toBe(true);
    });

    it("is anonymous for a host it has nothing for, and the registry says 401", async () => {
      await writeFile(join(dir, "other.json"), JSON.stringify({ credsStore: "cocoontest" }));
      const credentials = dockerConfigCredentials({ path: join(dir, "other.json") });
      expect(await credentials("elsewhere.example:5000")).toBeUndefined();
      const err = await rejectionOf(new OCIRegistry(registry.host, { credentials }).hasManifest("vm-token", "hibernate"));
      expect(err.code).toBe("ERR_REGISTRY_UNAUTHORIZED");
    });
  });
});
