import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRegistryBinary } from "../binaries/binaries.js";
import type { ProgressLog } from "../binaries/command.js";
import { onParentExit } from "../process/exit-cleanup.js";
import { freePort } from "../process/free-port.js";
import { startProcess, type ManagedProcess } from "../process/managed-process.js";
import { renderRegistryConfig, type RegistryAuthConfig } from "./registry-config.js";
import { waitRegistryReady } from "./registry-readiness.js";
import { startRegistryFront, type RegistryFront } from "./registry-front.js";
import { createTokenIssuer, TOKEN_ISSUER, TOKEN_SERVICE, type TokenIssuer, type TokenUser } from "./token-issuer.js";

/** How {@link startRegistry}'s registry authenticates. */
export type TestRegistryAuth = "none" | "htpasswd" | "token";

/** Options of {@link startRegistry}. */
export interface StartRegistryOptions {
  /** The distribution `registry` binary; default {@link ensureRegistryBinary} (which may build it). */
  binary?: string;
  /** `none` (anonymous), `htpasswd` (basic auth, user `docker` with a generated password) or `token` (bearer tokens). */
  auth?: TestRegistryAuth;
  /** Users of the token issuer (`auth: "token"`); default one user `cocoon` with a generated password and every action. */
  users?: Readonly<Record<string, TokenUser>>;
  /** Deadline for the registry to answer `/v2/`, from spawning; default 30 s. */
  startTimeoutMs?: number;
  /** Grace after SIGTERM before SIGKILL in {@link TestRegistry.stop}; default 10 s. */
  stopTimeoutMs?: number;
  /** Build progress lines (see {@link ensureRegistryBinary}). */
  log?: ProgressLog;
  /** Aborts the start (the process is stopped, files removed). */
  signal?: AbortSignal;
}

/** A running CNCF distribution registry; see {@link startRegistry}. */
export interface TestRegistry {
  /**
   * `127.0.0.1:<port>`: the base to give `OCIRegistry` (plain HTTP, as it is loopback). With token
   * auth this is a front in the calling process that serves the token endpoint at `/token`, so the
   * realm is the registry's own host and port (as go-containerregistry requires of a loopback
   * realm), and forwards everything else to the registry.
   */
  readonly host: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** How it authenticates. */
  readonly auth: TestRegistryAuth;
  /** The user name and password that work (`htpasswd`: `docker`; `token`: the first user), or `undefined` for `none`. */
  readonly credentials: { readonly username: string; readonly password: string } | undefined;
  /** Requests the token endpoint has answered (0 without token auth). */
  readonly tokenRequests: number;
  /** Milliseconds from spawning to answering `/v2/`. */
  readonly startupMs: number;
  /** Process id of the registry. */
  readonly pid: number;
  /** Temporary folder with the configuration and the stored blobs; removed by {@link TestRegistry.stop}. */
  readonly dir: string;
  /** The last `lines` log lines of the registry. */
  logTail(lines?: number): string;
  /** Stops the registry (SIGTERM, SIGKILL after the grace time) and its token front, and removes {@link TestRegistry.dir}; idempotent. */
  stop(): Promise<void>;
  /**
   * {@link TestRegistry.stop}, for `await using`: the registry stops when the block ends, thrown or not.
   *
   * @example
   * ```ts
   * {
   *   await using registry = await startRegistry();
   *   await new OCIRegistry(registry.host).hasManifest("vk-demo-sandbox-0", "hibernate"); // => false
   * } // stopped here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a throwaway CNCF distribution registry (v3.1.2) on a free loopback port, deletes enabled.
 *
 * With `auth: "htpasswd"` the registry provisions its own htpasswd file (user `docker`, a random
 * password read back from its log); with `auth: "token"` a small token issuer answers
 * `/token` on the registry's own host and port (a front in this process, forwarding the rest),
 * signing ES256 tokens with a key generated for this run. Files and processes are removed by
 * {@link TestRegistry.stop}, and also when the calling process exits or gets SIGINT/SIGTERM. It is
 * `AsyncDisposable`: `await using registry = await startRegistry()` stops it when the block ends.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` with the registry's last 40 log lines.
 * @example
 * ```ts
 * const registry = await startRegistry({ auth: "token" });
 * try {
 *   const oci = new OCIRegistry(registry.host, { credentials: staticCredentials({ [registry.host]: registry.credentials! }) });
 *   await oci.hasManifest("vk-demo-sandbox-0", "hibernate"); // => false
 * } finally {
 *   await registry.stop();
 * }
 * ```
 */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<TestRegistry> {
  const { log, signal } = options;
  const binary = options.binary ?? (await ensureRegistryBinary({ ...(log && { log }), ...(signal && { signal }) })).registry;
  const auth = options.auth ?? "none";
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "cocoon-registry-"));
  let proc: ManagedProcess | undefined;
  let front: RegistryFront | undefined;
  const unregister = onParentExit(() => {
    proc?.killNow();
    rmSync(dir, { recursive: true, force: true });
  });
  const shutdown = async (): Promise<void> => {
    await proc?.stop(options.stopTimeoutMs ?? 10_000);
    await front?.stop();
    await rm(dir, { recursive: true, force: true });
    unregister();
  };
  try {
    const users = options.users ?? { cocoon: { password: randomBytes(12).toString("base64url") } };
    const issuer = auth === "token" ? createTokenIssuer(users) : undefined;
    const port = await freePort();
    front = issuer === undefined ? undefined : await startRegistryFront(issuer, port);
    const config = await authConfig(auth, dir, issuer, front?.realm ?? "");
    await writeFile(join(dir, "config.json"), renderRegistryConfig(dir, port, config));
    const env = { ...process.env, OTEL_TRACES_EXPORTER: "none", OTEL_SDK_DISABLED: "true" };
    proc = startProcess("registry", binary, ["serve", join(dir, "config.json")], dir, env);
    const host = `127.0.0.1:${front?.port ?? port}`;
    const url = `http://${host}`;
    const htpasswd = await waitRegistryReady(url, proc, auth, started + (options.startTimeoutMs ?? 30_000), signal);
    const [firstUser, firstEntry] = Object.entries(users)[0] ?? [];
    const credentials =
      htpasswd ?? (auth === "token" && firstUser !== undefined ? { username: firstUser, password: firstEntry?.password ?? "" } : undefined);
    const running = proc;
    let stopping: Promise<void> | undefined;
    return {
      host,
      url,
      auth,
      credentials,
      get tokenRequests() {
        return issuer?.requests ?? 0;
      },
      startupMs: Date.now() - started,
      pid: running.pid,
      dir,
      logTail: (lines = 40) => running.logTail(lines).join("\n"),
      stop: () => (stopping ??= shutdown()),
      [Symbol.asyncDispose]: () => (stopping ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

async function authConfig(
  auth: TestRegistryAuth,
  dir: string,
  issuer: TokenIssuer | undefined,
  realm: string,
): Promise<RegistryAuthConfig> {
  if (auth === "htpasswd") return { kind: "htpasswd", path: join(dir, "htpasswd") };
  if (auth !== "token" || issuer === undefined) return { kind: "none" };
  const jwks = join(dir, "jwks.json");
  await writeFile(jwks, issuer.jwks);
  return { kind: "token", realm, service: TOKEN_SERVICE, issuer: TOKEN_ISSUER, jwks };
}
