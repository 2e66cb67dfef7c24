/**
 * The registry probe against a raw `fetch` floor, on a real CNCF distribution registry with token auth.
 *
 * Variants, interleaved in rounds (one call of each per round, shuffled) after a warm-up, repeated
 * `--runs` times:
 * - `floor HEAD`: Node's `fetch` sending the same `HEAD /v2/<vm>/manifests/hibernate` with the
 *   same Accept header and a bearer token fetched once by hand: the least a probe costs.
 * - `hasHibernateSnapshot`: the operator's probe through `OCIRegistry` (token cached: 1 HEAD).
 * - `floor GET 1 MiB` / `getBlob 1 MiB`: a raw `fetch` reading a 1 MiB blob whole, against the
 *   verified stream (sha256 and length checked while streaming).
 * Requests per call are counted by the client (`requestCounts`), which the integration tests check on the wire.
 *
 * Run: npm run bench:oci [-- --runs 3 --n 300 --warmup 30]
 */
import { parseArgs } from "node:util";
import { hasHibernateSnapshot, OCIRegistry, sha256Digest, staticCredentials } from "../src/oci/index.js";
import { startRegistry } from "../src/testing/index.js";
import type { Variant } from "./measure-async.js";
import { runRounds } from "./run-rounds.js";

const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "3" }, n: { type: "string", default: "300" }, warmup: { type: "string", default: "30" } },
});
const [RUNS, N, WARMUP] = [Number(args.runs), Number(args.n), Number(args.warmup)];
const VM = "vk-bench-sandbox-0";
const ACCEPT = "application/vnd.oci.image.manifest.v1+json,application/vnd.oci.image.index.v1+json";

const server = await startRegistry({ auth: "token" });
try {
  const { host, credentials } = server;
  if (credentials === undefined) throw new Error("token auth gives credentials");
  const oci = new OCIRegistry(host, { credentials: staticCredentials({ [host]: credentials }) });
  const blob = Buffer.alloc(1024 * 1024, 7);
  const digest = sha256Digest(blob);
  await oci.putBlob(
    VM,
    digest,
    (async function* () {
      yield blob;
    })(),
    blob.length,
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: { mediaType: "application/octet-stream", digest, size: blob.length },
      layers: [],
    }),
  );
  await oci.putManifest(VM, "hibernate", manifest, "application/vnd.oci.image.manifest.v1+json");
  const pull = await rawToken(server.url, credentials);

  const variants: Variant[] = [
    {
      name: "floor HEAD (raw fetch)",
      run: () =>
        fetch(`${server.url}/v2/${VM}/manifests/hibernate`, { method: "HEAD", headers: { accept: ACCEPT, authorization: pull } }).then(ok),
    },
    {
      name: "hasHibernateSnapshot",
      run: () => hasHibernateSnapshot(oci, VM).then((present) => present || Promise.reject(new Error("absent"))),
    },
    {
      name: "floor GET 1 MiB (raw fetch)",
      run: () =>
        fetch(`${server.url}/v2/${VM}/blobs/${digest}`, { headers: { authorization: pull } }).then(
          async (r) => (await r.arrayBuffer()).byteLength,
        ),
    },
    {
      name: "getBlob 1 MiB (verified)",
      run: async () => {
        let n = 0;
        for await (const c of await oci.getBlob(VM, digest)) n += (c as Buffer).length;
        return n;
      },
    },
  ];
  await hasHibernateSnapshot(oci, VM); // the token for the pull scope is cached from here on
  const before = oci.requestCounts;
  await hasHibernateSnapshot(oci, VM);
  const after = oci.requestCounts;
  console.log(`node ${process.version}; distribution registry at ${server.url} (token auth, started in ${server.startupMs} ms)`);
  console.log(
    `requests per cached probe: ${after.registry - before.registry} to the registry, ${after.token - before.token} to the token endpoint`,
  );
  console.log(`${RUNS} runs x ${N} rounds of ${variants.length} interleaved sequential calls, ${WARMUP} warm-up rounds each`);
  await runRounds(variants, { runs: RUNS, n: N, warmup: WARMUP });
} finally {
  await server.stop();
}

function ok(r: Response): void {
  if (r.status !== 200) throw new Error(`HEAD answered ${r.status}`);
}

/** Fetches a pull token by hand, as the floor's client would once. */
async function rawToken(url: string, credentials: { username: string; password: string }): Promise<string> {
  const challenge = (await fetch(`${url}/v2/${VM}/manifests/hibernate`, { method: "HEAD" })).headers.get("www-authenticate") ?? "";
  const param = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(challenge)?.[1] ?? "";
  const realm = new URL(param("realm"));
  realm.searchParams.set("service", param("service"));
  realm.searchParams.set("scope", `repository:${VM}:pull`);
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64");
  const body = (await (await fetch(realm, { headers: { authorization: `Basic ${basic}` } })).json()) as { token: string };
  return `Bearer ${body.token}`;
}
