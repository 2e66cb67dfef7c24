import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHTTPSServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTestPKI } from "../../../../test/hostile/support/test-ca.js";
import { OCIRegistry } from "../../oci-registry.js";
import { defaultFetch } from "./default-fetch.js";

// Which client each request of a registry made without `fetch` goes through: Node's fetch names
// itself in `User-Agent` (`node`, or `undici` on older lines), the package's own client sends none.
const MANIFEST = JSON.stringify({ schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json", layers: [] });
const DIGEST = `sha256:${createHash("sha256").update(MANIFEST).digest("hex")}`;
const SLOTS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")];
const CHILD = path.join(import.meta.dirname, "read-manifest-child.test-util.ts");
const seen: [string, string | undefined][] = [];
const NODE_FETCH = expect.stringMatching(/^(node|undici)$/u) as string;
let server: Server;
let host = "";

function answer(req: IncomingMessage, res: ServerResponse): void {
  seen.push([req.method ?? "", req.headers["user-agent"]]);
  req.resume();
  res
    .writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json", "docker-content-digest": DIGEST })
    .end(req.method === "HEAD" ? undefined : MANIFEST);
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  delete process.env["NODE_USE_ENV_PROXY"];
});

describe("defaultFetch", () => {
  it("sends every request over the package's client; a body it cannot size through Node's fetch", async () => {
    const send = defaultFetch();
    expect((await send(`http://${host}/v2/vm/manifests/a`)).status).toBe(200);
    await (await send(`http://${host}/v2/vm/manifests/a`, { method: "HEAD" })).body?.cancel();
    await (await send(`http://${host}/v2/vm/manifests/a`, { method: "PUT", body: Buffer.from(MANIFEST) })).body?.cancel();
    await (await send(`http://${host}/v2/vm/manifests/a`, { method: "PUT", body: MANIFEST })).body?.cancel();
    expect(seen).toEqual([
      ["GET", undefined],
      ["HEAD", undefined],
      ["PUT", undefined],
      ["PUT", NODE_FETCH],
    ]);
  });

  it("sends everything through Node's fetch when Node is told to use the environment's proxy", async () => {
    process.env["NODE_USE_ENV_PROXY"] = "1";
    await (await defaultFetch()(`http://${host}/v2/vm/manifests/a`)).body?.cancel();
    expect(seen).toEqual([["GET", NODE_FETCH]]);
  });

  it("sends everything through Node's fetch while undici's global dispatcher is not Node's own", async () => {
    const send = defaultFetch();
    const get = async (): Promise<void> => {
      await (await send(`http://${host}/v2/vm/manifests/a`)).body?.cancel();
    };
    await get();
    const { Agent, setGlobalDispatcher } = await import("undici");
    const saved = SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
    const agent = new Agent();
    setGlobalDispatcher(agent);
    try {
      await get();
    } finally {
      SLOTS.forEach((slot, i) => Reflect.set(globalThis, slot, saved[i]));
      await agent.close();
    }
    await get();
    expect(seen).toEqual([
      ["GET", undefined],
      ["GET", NODE_FETCH],
      ["GET", undefined],
    ]);
  });

  it("is what a registry made without `fetch` reads manifests with", async () => {
    const registry = new OCIRegistry(host, { retries: 0 });
    expect(new TextDecoder().decode((await registry.getManifest("vm", "a")).data)).toBe(MANIFEST);
    expect(await registry.hasManifest("vm", "a")).toBe(true);
    expect(seen).toEqual([
      ["GET", undefined],
      ["HEAD", undefined],
    ]);
  });

  it("trusts the CAs of NODE_EXTRA_CA_CERTS on the package's client, and no others", async () => {
    const pki = makeTestPKI(["127.0.0.1"]);
    const tls = createHTTPSServer({ cert: pki.server.cert, key: pki.server.key }, answer);
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const dir = mkdtempSync(path.join(tmpdir(), "cocoon-extra-ca-"));
    const caFile = path.join(dir, "ca.pem");
    writeFileSync(caFile, pki.ca);
    const read = async (extra: Record<string, string>): Promise<unknown> => {
      const env = { ...process.env, NODE_USE_ENV_PROXY: "", NODE_EXTRA_CA_CERTS: "", ...extra };
      const args = ["--import", "tsx", CHILD, `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v2/vm/manifests/a`];
      return JSON.parse((await promisify(execFile)(process.execPath, args, { env, encoding: "utf8" })).stdout);
    };
    try {
      expect(await read({ NODE_EXTRA_CA_CERTS: caFile })).toEqual({ status: 200, bytes: MANIFEST.length });
      expect(await read({})).toEqual({ error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
      expect(seen).toEqual([["GET", undefined]]);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
