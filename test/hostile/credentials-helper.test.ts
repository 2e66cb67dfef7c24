/**
 * Hostile docker credential helpers (rule 3 of issue 19): real `#!/bin/sh` helpers on a temporary
 * PATH that ignore SIGTERM, leave a child holding stdout, or print without end. Each call must end
 * within its deadline plus a small bound, and leave no helper process running.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isRegistryError } from "../../src/oci/errors.js";
import { dockerConfigCredentials, hasHibernateSnapshot } from "../../src/oci/index.js";
import { hostileRegistry } from "./support/hostile-client.js";
import { bearerChallenge, startWorld, type HostileWorld } from "./support/world.js";

let dir: string;
const pathBefore = process.env.PATH;
const ANSWER = `'{"Username":"bot","Secret":"pw"}'`;

/** Writes `docker-credential-<name>`; the script's `$PIDS` is a file it writes its process ids to. */
async function helper(name: string, body: string): Promise<string> {
  const pids = join(dir, `${name}.pids`);
  const file = join(dir, "bin", `docker-credential-${name}`);
  await writeFile(file, `#!/bin/sh\nPIDS='${pids}'\n${body}\n`);
  await chmod(file, 0o755);
  return pids;
}

/** Runs the config's credential source for ghcr.io; the elapsed time and the outcome. */
async function ask(helperName: string, helperTimeoutMs: number, signal?: AbortSignal) {
  const path = join(dir, `${helperName}.json`);
  await writeFile(path, JSON.stringify({ credHelpers: { "ghcr.io": helperName } }));
  const started = performance.now();
  const outcome = await dockerConfigCredentials({ path, helperTimeoutMs })("ghcr.io", signal).then(
    (value) => ({ value, error: undefined as unknown }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, elapsedMs: performance.now() - started };
}

/** A process that is neither gone nor a zombie. */
async function running(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

const recorded = async (pids: string): Promise<number[]> =>
  (await readFile(pids, "utf8").catch(() => "")).split(/\s+/).filter(Boolean).map(Number);

/** Pids from the file still running after up to `withinMs`. */
async function survivors(pids: string, withinMs = 1500): Promise<number[]> {
  const ids = await recorded(pids);
  const until = performance.now() + withinMs;
  for (;;) {
    const alive = (await Promise.all(ids.map(async (id) => ((await running(id)) ? id : undefined)))).filter((id) => id !== undefined);
    if (alive.length === 0 || performance.now() > until) return alive;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pidFiles: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cocoon-hostile-helper-"));
  await mkdir(join(dir, "bin"));
  process.env.PATH = `${join(dir, "bin")}:${pathBefore ?? ""}`;
});
afterEach(async () => {
  // A failing run (today's code) must not leave sleepers behind for the next test.
  for (const file of pidFiles.splice(0)) for (const id of await recorded(file)) if (await running(id)) process.kill(id, "SIGKILL");
});
afterAll(async () => {
  process.env.PATH = pathBefore;
  await rm(dir, { recursive: true, force: true });
});

describe("a hostile credential helper", () => {
  it("that ignores SIGTERM, with a child holding its stdout, cannot hold the call past its deadline", async () => {
    const pids = await helper("ignores-term", `echo $$ > "$PIDS"\ntrap '' TERM\nsleep 100 &\necho $! >> "$PIDS"\nwait`);
    pidFiles.push(pids);
    const { error, elapsedMs } = await ask("ignores-term", 1000);
    expect(isRegistryError(error, "ERR_REGISTRY_TIMEOUT")).toBe(true);
    expect((error as Error).message).toBe("credential helper docker-credential-ignores-term for ghcr.io: no answer within 1000 ms");
    expect(elapsedMs).toBeGreaterThanOrEqual(950);
    expect(elapsedMs).toBeLessThan(1000 + 2000);
    expect((await recorded(pids)).length).toBe(2);
    expect(await survivors(pids)).toEqual([]);
  });

  it("that answers and exits but leaves a child holding its stdout: the answer counts and the child is killed", async () => {
    const pids = await helper("forks", `echo $$ > "$PIDS"\nsleep 100 &\necho $! >> "$PIDS"\necho ${ANSWER}`);
    pidFiles.push(pids);
    const { value, error, elapsedMs } = await ask("forks", 1000);
    expect(error).toBeUndefined();
    expect(value).toEqual({ username: "bot", password: "pw" });
    expect(elapsedMs).toBeLessThan(1000 + 2000);
    expect(await survivors(pids)).toEqual([]);
  });

  it("cannot hold the call past an abort of the signal it is given; the call rejects with the signal's reason", async () => {
    const pids = await helper("abort", `echo $$ > "$PIDS"\ntrap '' TERM\nsleep 100 &\necho $! >> "$PIDS"\nwait`);
    pidFiles.push(pids);
    const reason = new Error("the caller gave up");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 300);
    const { error, elapsedMs } = await ask("abort", 10_000, controller.signal);
    expect(error).toBe(reason);
    expect(elapsedMs).toBeLessThan(300 + 2000);
    expect(await survivors(pids)).toEqual([]);
  });

  it("that prints 100 MiB fails with a typed error at the output cap, long before its deadline", async () => {
    const pids = await helper("floods", `echo $$ > "$PIDS"\nexec head -c 104857600 /dev/zero`);
    pidFiles.push(pids);
    const { error, elapsedMs } = await ask("floods", 10_000);
    expect(isRegistryError(error, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
    expect((error as Error).message).toBe("credential helper docker-credential-floods for ghcr.io: answer passes 1048576 bytes");
    expect(elapsedMs).toBeLessThan(2000);
    expect(await survivors(pids)).toEqual([]);
  });

  it("that writes without end to stderr cannot grow memory: stderr is not read, the stdout answer counts", async () => {
    const pids = await helper("noisy", `echo $$ > "$PIDS"\nhead -c 104857600 /dev/zero >&2\necho ${ANSWER}`);
    pidFiles.push(pids);
    const { value, elapsedMs } = await ask("noisy", 10_000);
    expect(value).toEqual({ username: "bot", password: "pw" });
    expect(elapsedMs).toBeLessThan(10_000);
    expect(await survivors(pids)).toEqual([]);
  });
});

describe("a real helper behind a registry call", () => {
  let world: HostileWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  /** A registry whose credentials come from `docker-credential-<name>` through a config.json. */
  async function registryWith(name: string, options: { deadlineMs?: number } = {}) {
    const path = join(dir, `${name}-registry.json`);
    await writeFile(path, JSON.stringify({ credHelpers: { [world.registry.host]: name } }));
    return hostileRegistry(world.registry.host, world.fetch, {
      ...options,
      credentials: dockerConfigCredentials({ path, helperTimeoutMs: 10_000 }),
    });
  }

  it("a helper that fails saying 404 makes the probe unauthorized, never absent", async () => {
    const pids = await helper("says-404", `echo $$ > "$PIDS"\necho '404 Not Found: no such server' >&2\nexit 1`);
    pidFiles.push(pids);
    world.registry.handle((_req, res) => bearerChallenge(res, `${world.registry.origin}/token`));
    const err: unknown = await hasHibernateSnapshot(await registryWith("says-404"), "vm").then(
      (present) => present,
      (e: unknown) => e,
    );
    expect(isRegistryError(err, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
    expect((err as Error).message).toBe(
      `probe hibernate snapshot vm: credential helper docker-credential-says-404 for ${world.registry.host}: exit status 1`,
    );
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/vm/manifests/hibernate"]);
  });

  it("a helper that ignores SIGTERM is bounded by the call's deadline, not only by its own timeout", async () => {
    const pids = await helper("stalls", `echo $$ > "$PIDS"\ntrap '' TERM\nsleep 100 &\necho $! >> "$PIDS"\nwait`);
    pidFiles.push(pids);
    world.registry.handle((_req, res) => bearerChallenge(res, `${world.registry.origin}/token`));
    const started = performance.now();
    const err: unknown = await (await registryWith("stalls", { deadlineMs: 800 })).hasManifest("vm", "hibernate").then(
      (present) => present,
      (e: unknown) => e,
    );
    const elapsedMs = performance.now() - started;
    expect(isRegistryError(err, "ERR_REGISTRY_TIMEOUT")).toBe(true);
    expect((err as Error).message).toBe("head manifest vm:hibernate: not done within the call's 800 ms deadline");
    expect(elapsedMs).toBeLessThan(800 + 2000);
    expect(await survivors(pids)).toEqual([]);
  });
});
