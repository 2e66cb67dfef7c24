import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OCIRegistry } from "../../oci-registry.js";
import { defaultFetch } from "./default-fetch.js";

// Which client each request of a registry made without `fetch` goes through: Node's fetch names
// itself in `User-Agent` (`node`, or `undici` on older lines), the package's own client sends none.
const MANIFEST = JSON.stringify({ schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json", layers: [] });
const DIGEST = `sha256:${createHash("sha256").update(MANIFEST).digest("hex")}`;
const seen: [string, string | undefined][] = [];
const NODE_FETCH = expect.stringMatching(/^(node|undici)$/u) as string;
let server: Server;
let host = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push([req.method ?? "", req.headers["user-agent"]]);
    req.resume();
    res
      .writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json", "docker-content-digest": DIGEST })
      .end(req.method === "HEAD" ? undefined : MANIFEST);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  delete process.env["NODE_USE_ENV_PROXY"];
});

describe("defaultFetch", () => {
  it("sends each GET over the package's client and everything else through Node's fetch", async () => {
    const send = defaultFetch();
    expect((await send(`http://${host}/v2/vm/manifests/a`)).status).toBe(200);
    await (await send(`http://${host}/v2/vm/manifests/a`, { method: "HEAD" })).body?.cancel();
    await (await send(`http://${host}/v2/vm/manifests/a`, { method: "PUT", body: MANIFEST })).body?.cancel();
    expect(seen).toEqual([
      ["GET", undefined],
      ["HEAD", NODE_FETCH],
      ["PUT", NODE_FETCH],
    ]);
  });

  it("sends everything through Node's fetch when Node is told to use the environment's proxy", async () => {
    process.env["NODE_USE_ENV_PROXY"] = "1";
    await (await defaultFetch()(`http://${host}/v2/vm/manifests/a`)).body?.cancel();
    expect(seen).toEqual([["GET", NODE_FETCH]]);
  });

  it("is what a registry made without `fetch` reads manifests with", async () => {
    const registry = new OCIRegistry(host, { retries: 0 });
    expect(new TextDecoder().decode((await registry.getManifest("vm", "a")).data)).toBe(MANIFEST);
    expect(await registry.hasManifest("vm", "a")).toBe(true);
    expect(seen).toEqual([
      ["GET", undefined],
      ["HEAD", NODE_FETCH],
    ]);
  });
});
