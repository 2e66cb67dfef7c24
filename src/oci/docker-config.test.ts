import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { dockerConfigCredentials } from "./docker-config.js";

let dir: string;
const write = async (name: string, config: unknown): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, typeof config === "string" ? config : JSON.stringify(config));
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cocoon-docker-config-unit-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("dockerConfigCredentials", () => {
  it("reads auths by host, whatever scheme or path the key carries, and Docker Hub's historical key", async () => {
    const path = await write("auths.json", {
      auths: {
        "https://ghcr.io": { auth: Buffer.from("bot:p:with:colons").toString("base64") },
        "registry.local:5000/v2/": { username: "u", password: "pw" },
        "https://index.docker.io/v1/": { identitytoken: "refresh-me" },
      },
    });
    const credentials = dockerConfigCredentials({ path });
    expect(await credentials("ghcr.io")).toEqual({ username: "bot", password: "p:with:colons" });
    expect(await credentials("registry.local:5000")).toEqual({ username: "u", password: "pw" });
    expect(await credentials("index.docker.io")).toEqual({ identityToken: "refresh-me" });
    expect(await credentials("quay.io")).toBeUndefined();
  });

  it("finds $DOCKER_CONFIG/config.json, and is anonymous when there is no file", async () => {
    await write("config.json", { auths: { "ghcr.io": { username: "a", password: "b" } } });
    expect(await dockerConfigCredentials({ env: { DOCKER_CONFIG: dir } })("ghcr.io")).toEqual({ username: "a", password: "b" });
    expect(await dockerConfigCredentials({ env: { HOME: join(dir, "nobody") } })("ghcr.io")).toBeUndefined();
  });

  it.each([
    ["not JSON", "{", /is not JSON/],
    [
      "an auth that is not user:password",
      { auths: { "ghcr.io": { auth: Buffer.from("nocolon").toString("base64") } } },
      /auths\["ghcr.io"\]\.auth is not base64 "user:password"/,
    ],
  ])("refuses %s with ERR_INVALID_ARGUMENT naming the file", async (name, config, message) => {
    const path = await write(`${name}.json`, config);
    const err = await dockerConfigCredentials({ path })("ghcr.io").catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toContain(path);
  });

  it("reports a credential helper that is not installed as ERR_REGISTRY_UNAUTHORIZED", async () => {
    const path = await write("helper.json", { credHelpers: { "ghcr.io": "cocoon-missing-helper" } });
    const err = await dockerConfigCredentials({ path })("ghcr.io").catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
    expect((err as Error).message).toMatch(
      /^credential helper docker-credential-cocoon-missing-helper for ghcr\.io: spawn docker-credential-cocoon-missing-helper ENOENT/,
    );
  });
});
