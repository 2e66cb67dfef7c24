import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The oracle's Go sources: `conformance/go` at the repository root. */
export const ORACLE_SOURCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../conformance/go");

/** The name of the test that stands in for a conformance suite when `go` is not on the machine. */
export const GO_MISSING = "Go toolchain not found: conformance skipped";

/** Set to `1` (CI does) to make a missing Go toolchain fail the suite instead of skipping it. */
export const REQUIRE_GO_ENV = "COCOON_CONFORMANCE_REQUIRE_GO";

const GO = process.env.GO ?? "go";
const BUILD_LOCK_STALE_MS = 10 * 60_000;

/** Go's version (e.g. `go1.26.8`), or `undefined` when no `go` command runs. */
export function goVersion(): string | undefined {
  const result = spawnSync(GO, ["env", "GOVERSION"], { encoding: "utf8", env: goEnv() });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function goEnv(): NodeJS.ProcessEnv {
  // Never fetch another toolchain, never rewrite go.mod/go.sum: the committed pins are the oracle.
  const flags = [process.env.GOFLAGS, "-mod=readonly", "-buildvcs=false"].filter(Boolean).join(" ");
  return { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: flags };
}

/**
 * The files the oracle binary is built from, relative to {@link ORACLE_SOURCE_DIR} with `/`
 * separators, sorted: go.mod, go.sum and every `.go` file of the module, subpackages included.
 * Test files are left out, as `go build` never compiles them (the benchmarks live beside package
 * `cocoon`, and editing them must not rebuild the oracle).
 */
export function oracleSourceFiles(): string[] {
  return readdirSync(ORACLE_SOURCE_DIR, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(path.sep).join("/"))
    .filter((name) => name === "go.mod" || name === "go.sum" || (name.endsWith(".go") && !name.endsWith("_test.go")))
    .sort();
}

/** Where the oracle for these sources and this toolchain is cached. */
export function oracleCachePath(version: string): string {
  const hash = createHash("sha256").update(version);
  for (const name of oracleSourceFiles()) {
    hash.update(`\0${name}\0`).update(readFileSync(path.join(ORACLE_SOURCE_DIR, name)));
  }
  const cacheHome = process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache");
  return path.join(cacheHome, "cocoon-common", "oracle", hash.digest("hex").slice(0, 16), "oracle");
}

/**
 * Returns the path of the built oracle, building it first when this exact source and toolchain
 * were never built on this machine. Concurrent callers (parallel test files) build it once.
 */
export async function ensureOracle(version: string): Promise<string> {
  const binary = oracleCachePath(version);
  if (existsSync(binary)) return binary;
  mkdirSync(path.dirname(binary), { recursive: true });
  const lock = `${binary}.lock`;
  await acquire(lock);
  try {
    if (existsSync(binary)) return binary;
    const temporary = `${binary}.${String(process.pid)}.tmp`;
    try {
      await promisify(execFile)(GO, ["build", "-trimpath", "-o", temporary, "."], {
        cwd: ORACLE_SOURCE_DIR,
        env: goEnv(),
        maxBuffer: 1 << 24,
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? "";
      throw new Error(`building the Go oracle in ${ORACLE_SOURCE_DIR} failed:\n${stderr}`, { cause: error });
    }
    renameSync(temporary, binary);
    return binary;
  } finally {
    rmSync(lock, { force: true });
  }
}

async function acquire(lock: string): Promise<void> {
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > BUILD_LOCK_STALE_MS) rmSync(lock, { force: true });
    } catch {
      // The holder has just released it.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
