// A go-containerregistry v0.21.7 client (what a Go operator runs) against `startRegistry({ auth:
// "token" })`: it pushes a small image with remote.Write and basic credentials of a token user,
// then probes it with remote.Head, present and absent. go-containerregistry takes a loopback token
// realm only on the registry's own host and port, so this holds the test registry to that rule.
import { afterAll, beforeAll, expect, it } from "vitest";
import { OCIRegistry, sha256Digest, staticCredentials } from "../../src/oci/index.js";
import { ensureRegistryBinary, startRegistry, type TestRegistry } from "../../src/testing/index.js";
import { CONFORMANCE_TIMEOUT_MS, describeConformance } from "./support/conformance.js";

/** The Go client's answer (`conformance/go/registryclient.go`); failed steps carry Go's error text. */
interface GoClientAnswer {
  pushed?: string;
  pushError?: string;
  head?: { mediaType: string; size: number; digest: string };
  headError?: string;
  absentStatus?: number;
  absentError?: string;
}

const REPOSITORY = "vk-go-sandbox-0";
// The Go side's image (an empty config and one layer holding "cocoon") is the same on every run.
const MANIFEST_DIGEST = "sha256:b5315f7186f7bd27556f39493cbbe69a87bd1817ddd9bd448de8c1679433b511";
const MANIFEST_SIZE = 399;
const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

describeConformance("a go-containerregistry client on the token-auth test registry", (oracle) => {
  let registry: TestRegistry;
  beforeAll(async () => {
    const binary = (await ensureRegistryBinary()).registry;
    registry = await startRegistry({ binary, auth: "token", users: { kubelet: { password: "kubelet-secret" } } });
  }, 600_000);
  afterAll(async () => {
    await registry.stop();
  });

  it(
    "pushes with remote.Write, finds the tag with remote.Head, and gets a 404 for an absent one",
    async () => {
      const answer = await oracle().ask<GoClientAnswer>({
        op: "registryClient",
        args: {
          registry: registry.host,
          repository: REPOSITORY,
          tag: "hibernate",
          absentTag: "absent",
          username: "kubelet",
          password: "kubelet-secret",
        },
      });
      const head = `HEAD ${registry.url}/v2/${REPOSITORY}/manifests/absent`;
      expect(answer).toEqual({
        pushed: MANIFEST_DIGEST,
        head: { mediaType: OCI_MANIFEST, size: MANIFEST_SIZE, digest: MANIFEST_DIGEST },
        absentStatus: 404,
        absentError: `${head}: unexpected status code 404 Not Found (HEAD responses have no body, use GET for details)`,
      });
      expect(registry.tokenRequests).toBe(3); // remote.Write, and each remote.Head, exchange the basic credentials once

      const ours = new OCIRegistry(registry.host, {
        credentials: staticCredentials({ [registry.host]: { username: "kubelet", password: "kubelet-secret" } }),
      });
      const manifest = await ours.getManifest(REPOSITORY, "hibernate");
      expect([sha256Digest(manifest.data), manifest.data.length, manifest.contentType]).toEqual([
        MANIFEST_DIGEST,
        MANIFEST_SIZE,
        OCI_MANIFEST,
      ]);
      expect(await ours.hasManifest(REPOSITORY, "absent")).toBe(false);
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
