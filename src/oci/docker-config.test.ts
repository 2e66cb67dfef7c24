import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { dockerConfigCredentials } from "./docker-config.js";

let dir: string;
let bin: string;
const pathBefore = process.env.PATH;
const write = async (name: string, config: unknown): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, typeof config === "string" ? config : JSON.stringify(config));
  return path;
};

/** A helper speaking the helper binary protocol: `Username` is the helper's own name, `Secret` the server it was asked for. */
const helperScript = (name: string): string =>
  `#!/bin/sh\nread -r server\nprintf '{"ServerURL":"%s","Username":"${name}","Secret":"%s"}' "$server" "$server"\n`;
const writeHelper = async (where: string, name: string): Promise<void> => {
  await mkdir(where, { recursive: true });
  await writeFile(join(where, `docker-credential-${name}`), helperScript(name));
  await chmod(join(where, `docker-credential-${name}`), 0o755);
};
const failureOf = async (config: unknown, registry = "ghcr.io"): Promise<Error> => {
  const path = await write(`failure-${Math.random()}.json`, config);
  return dockerConfigCredentials({ path })(registry).then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err as Error,
  );
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cocoon-docker-config-unit-"));
  bin = join(dir, "bin");
  await writeHelper(bin, "store");
  await writeHelper(bin, "pinned");
  process.env.PATH = `${bin}:${pathBefore ?? ""}`;
});
afterAll(async () => {
  process.env.PATH = pathBefore;
  await rm(dir, { recursive: true, force: true });
});

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
    const err = await failureOf({ credHelpers: { "ghcr.io": "cocoon-missing-helper" } });
    expect(isCocoonError(err, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
    expect(err.message).toBe(
      "credential helper docker-credential-cocoon-missing-helper for ghcr.io: docker-credential-cocoon-missing-helper is not found on PATH",
    );
  });
});

describe("dockerConfigCredentials, as docker leaves the file (docker/cli configfile)", () => {
  const store = (server: string) => ({ username: "store", password: server });
  const fileAuth = { auth: Buffer.from("file:file-pw").toString("base64") };

  it.each<[string, unknown, unknown]>([
    [
      "an empty auths entry with credsStore (docker login with a store)",
      { auths: { "ghcr.io": {} }, credsStore: "store" },
      store("ghcr.io"),
    ],
    ["credsStore over an auths entry that holds credentials", { auths: { "ghcr.io": fileAuth }, credsStore: "store" }, store("ghcr.io")],
    [
      "credHelpers[host] over credsStore",
      { credHelpers: { "ghcr.io": "pinned" }, credsStore: "store" },
      { username: "pinned", password: "ghcr.io" },
    ],
    [
      "an empty credHelpers[host]: auths alone, credsStore not asked",
      { auths: { "ghcr.io": fileAuth }, credHelpers: { "ghcr.io": "" }, credsStore: "store" },
      { username: "file", password: "file-pw" },
    ],
    [
      "a null credHelpers[host]: auths alone",
      { auths: { "ghcr.io": fileAuth }, credHelpers: { "ghcr.io": null }, credsStore: "store" },
      { username: "file", password: "file-pw" },
    ],
    ["an empty credsStore: unset", { credsStore: "" }, undefined],
    ["a null credsStore: unset", { auths: { "ghcr.io": fileAuth }, credsStore: null }, { username: "file", password: "file-pw" }],
    ["a null auths entry: anonymous", { auths: { "ghcr.io": null } }, undefined],
    ["null auths and credHelpers: anonymous", { auths: null, credHelpers: null }, undefined],
    [
      "a null entry field: unset",
      { auths: { "ghcr.io": { auth: null, identitytoken: null, username: "u", password: "p" } } },
      { username: "u", password: "p" },
    ],
    ["a config that is null", null, undefined],
    ["a config that is an array", [{ auths: { "ghcr.io": fileAuth } }], undefined],
    ["a config that is a string", "hello", undefined],
  ])("%s", async (_, config, expected) => {
    const path = await write(`docker-${Math.random()}.json`, JSON.stringify(config));
    expect(await dockerConfigCredentials({ path })("ghcr.io")).toEqual(expected);
  });

  it("asks credsStore with Docker Hub's historical key", async () => {
    const path = await write("hub-store.json", { credsStore: "store" });
    expect(await dockerConfigCredentials({ path })("index.docker.io")).toEqual(store("https://index.docker.io/v1/"));
  });

  it.each([
    ["a/b", "a path"],
    ["..", "a parent"],
    ["store/../store", "a path through a parent"],
    ["a\\b", "a Windows path"],
    ["a\0b", "a NUL"],
    ["-store", "a leading dash"],
    ["st ore", "a space"],
    ["store\n", "a newline"],
    [".store", "a leading dot"],
  ])("refuses the helper name %j (%s) with ERR_INVALID_ARGUMENT naming the key, and runs nothing", async (name) => {
    for (const [config, field] of [
      [{ credHelpers: { "ghcr.io": name } }, 'credHelpers["ghcr.io"]'],
      [{ credsStore: name }, "credsStore"],
    ] as const) {
      const err = await failureOf(config);
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
      expect(err.message).toMatch(
        new RegExp(`^docker config .*: ${field.replace(/[[\]"]/g, "\\$&")}: the helper name is not a single helper name`),
      );
    }
  });

  it.each<[string, unknown, string]>([
    ["a credsStore that is not a string", { credsStore: 42 }, "credsStore is not a string"],
    ["a credHelpers[host] that is not a string", { credHelpers: { "ghcr.io": ["store"] } }, 'credHelpers["ghcr.io"] is not a string'],
    ["credHelpers that is not an object", { credHelpers: "store" }, "credHelpers is not an object"],
    ["auths that is not an object", { auths: ["ghcr.io"] }, "auths is not an object"],
    ["an auths entry that is not an object", { auths: { "ghcr.io": "bot:pw" } }, 'auths["ghcr.io"] is not an object'],
    ["an auth that is not a string", { auths: { "ghcr.io": { auth: 7 } } }, 'auths["ghcr.io"].auth is not a string'],
    [
      "an auth with an empty user",
      { auths: { "ghcr.io": { auth: Buffer.from(":pw").toString("base64") } } },
      'auths["ghcr.io"].auth is not base64 "user:password"',
    ],
  ])("refuses %s with ERR_INVALID_ARGUMENT naming the key, never a TypeError", async (_, config, what) => {
    const err = await failureOf(config);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(err.message).toMatch(new RegExp(`^docker config .*\\.json: ${what.replace(/[[\].":]/g, "\\$&")}$`));
  });

  it("refuses a config.json past 4 MiB, even when it is valid JSON", async () => {
    const config = JSON.stringify({ auths: { "ghcr.io": { username: "u", password: "p" } } });
    const path = await write("large.json", config + " ".repeat(4 * 2 ** 20 + 1 - config.length));
    const err = await dockerConfigCredentials({ path })("ghcr.io").catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toBe(`docker config ${path}: larger than 4194304 bytes`);
    const fits = await write("fits.json", config + " ".repeat(4 * 2 ** 20 - config.length));
    expect(await dockerConfigCredentials({ path: fits })("ghcr.io")).toEqual({ username: "u", password: "p" });
  });

  it("refuses a FIFO in place of config.json at once instead of waiting for a writer", async () => {
    const path = join(dir, "fifo.json");
    execFileSync("mkfifo", [path]);
    try {
      const started = performance.now();
      const err = await Promise.race([
        dockerConfigCredentials({ path })("ghcr.io").catch((e: unknown) => e),
        new Promise((resolve) => setTimeout(resolve, 3000, "still waiting")),
      ]);
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
      expect((err as Error).message).toBe(`docker config ${path}: not a regular file`);
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      // Today's code blocks a thread in open(2) until a writer comes: be that writer, so the run can end.
      await open(path, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (file) => file.close(),
        () => undefined,
      );
    }
  });

  it("finds a helper only in an absolute PATH directory, never through a relative one (Go's exec.ErrDot)", async () => {
    const relativeBin = join(dir, "relative-bin");
    await writeHelper(relativeBin, "relative");
    const pathBefore = process.env.PATH;
    process.env.PATH = `${relative(process.cwd(), relativeBin)}:${pathBefore ?? ""}`;
    try {
      const err = await failureOf({ credsStore: "relative" });
      expect(isCocoonError(err, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
      expect(err.message).toBe("credential helper docker-credential-relative for ghcr.io: docker-credential-relative is not found on PATH");
    } finally {
      process.env.PATH = pathBefore;
    }
  });

  it("refuses a helperTimeoutMs that is not a positive integer", () => {
    for (const helperTimeoutMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => dockerConfigCredentials({ helperTimeoutMs })).toThrow(
        `docker config: helperTimeoutMs must be a positive integer, got ${String(helperTimeoutMs)}`,
      );
    }
  });
});
