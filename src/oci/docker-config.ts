import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { CocoonError, isCocoonError } from "../errors.js";
import type { CredentialSource, RegistryCredentials } from "./credentials.js";
import { helperNameProblem, runCredentialHelper } from "./internal/credential-helper.js";

/** Options of {@link dockerConfigCredentials}. */
export interface DockerConfigOptions {
  /** The `config.json` to read; default `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`. */
  readonly path?: string;
  /** Environment to read `DOCKER_CONFIG` and `HOME` from; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Deadline of a credential helper run, in ms (a positive integer); default 10 s. At the deadline, on
   * an abort, or past 1 MiB of output the call ends and the helper's process group is killed.
   */
  readonly helperTimeoutMs?: number;
}

type Json = Record<string, unknown>;

/**
 * Credentials from a docker `config.json`, as `docker login` leaves them (docker's `configfile`, which
 * Go's `authn.DefaultKeychain` reads): the helper is `credHelpers[host]` if the key is there, else
 * `credsStore`; a helper answers alone (the `auths` entry a `docker login` with a store leaves is
 * empty). Without a helper, `auths[host]` answers (`auth` as base64 `user:password`,
 * `username`/`password`, or `identitytoken`). `auths` keys may carry a scheme and path
 * (`https://index.docker.io/v1/`); Docker Hub is looked up under its historical key.
 *
 * Anonymous (`undefined`): a missing file, a file that is not a JSON object, a `null` or empty
 * entry, a helper's "credentials not found". An empty or `null` helper name means none
 * (`credHelpers[host]: ""` leaves the host to `auths`, as in docker). A helper is one word:
 * `docker-credential-<name>` in an absolute `PATH` directory, never a path; a name with `/`, `\`,
 * `..`, NUL, whitespace, a leading `-` or `.`, or any character but letters, digits and `_ . + -`
 * is refused, as is a value of the wrong type in a key the lookup reads (`ERR_INVALID_ARGUMENT`
 * naming the key). A helper run is bounded as {@link DockerConfigOptions.helperTimeoutMs} says.
 * The file must be a regular file of at most 4 MiB. No error quotes the file or a helper's output.
 *
 * @throws CocoonError `ERR_INVALID_ARGUMENT` for a `helperTimeoutMs` that is not a positive integer.
 * @example
 * ```ts
 * const registry = new OCIRegistry("ghcr.io/acme/snapshots", { credentials: dockerConfigCredentials() });
 * ```
 */
export function dockerConfigCredentials(options: DockerConfigOptions = {}): CredentialSource {
  const env = options.env ?? process.env;
  const path = options.path ?? join(env.DOCKER_CONFIG ?? join(env.HOME ?? homedir(), ".docker"), "config.json");
  const timeoutMs = options.helperTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new CocoonError("ERR_INVALID_ARGUMENT", `docker config: helperTimeoutMs must be a positive integer, got ${String(timeoutMs)}`);
  return async (registry, signal) => {
    const config = await readConfig(path);
    const refuse = (what: string): CocoonError => new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path}: ${what}`);
    const server = registry === "index.docker.io" ? "https://index.docker.io/v1/" : registry;
    const helper = helperFor(config, server, registry, refuse);
    if (helper !== undefined) return runCredentialHelper(helper, server, { timeoutMs, signal });
    return fromAuths(config, server, registry, refuse);
  };
}

/** Most bytes of `config.json` read; a larger file is refused. */
const MAX_CONFIG_BYTES = 4 << 20;

async function readConfig(path: string): Promise<Json> {
  const refuse = (why: string, cause?: unknown): CocoonError =>
    new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path}: ${why}`, cause === undefined ? undefined : { cause });
  let text: string;
  try {
    // Non-blocking, so a FIFO put in its place cannot hold the open; fstat then refuses it.
    const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!(await file.stat()).isFile()) throw refuse("not a regular file");
      const chunks: Buffer[] = [];
      // `end` is inclusive: one byte past the cap tells a file that is too large.
      for await (const chunk of file.createReadStream({ start: 0, end: MAX_CONFIG_BYTES, autoClose: false })) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      if (bytes.length > MAX_CONFIG_BYTES) throw refuse(`larger than ${MAX_CONFIG_BYTES} bytes`);
      text = bytes.toString("utf8");
    } finally {
      await file.close();
    }
  } catch (err) {
    if (isCocoonError(err)) throw err;
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw refuse((err as Error).message, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // V8's message quotes the text, which holds credentials: neither the message nor the error is kept.
    throw new CocoonError("ERR_INVALID_ARGUMENT", `docker config ${path} is not JSON`);
  }
  return isObject(parsed) ? parsed : {};
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

/** An object field: `undefined` when absent or `null`, refused when of another type. */
function objectField(object: Json, key: string, name: string, refuse: (what: string) => CocoonError): Json | undefined {
  const value = own(object, key);
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw refuse(`${name} is not an object`);
  return value;
}

/** A string field: `""` when `null` or empty, `undefined` when absent, refused when of another type. */
function stringField(object: Json, key: string, name: string, refuse: (what: string) => CocoonError): string | undefined {
  if (!Object.hasOwn(object, key)) return undefined;
  const value = object[key];
  if (value === null) return "";
  if (typeof value !== "string") throw refuse(`${name} is not a string`);
  return value;
}

/**
 * docker's `getConfiguredCredentialStore`: `credHelpers[host]` when the key is there (`""` or `null`
 * then means "no helper, only `auths`"), else `credsStore`; `undefined` when no helper applies.
 */
function helperFor(config: Json, server: string, registry: string, refuse: (what: string) => CocoonError): string | undefined {
  const helpers = objectField(config, "credHelpers", "credHelpers", refuse);
  const key = helpers === undefined ? undefined : [server, registry].find((k) => Object.hasOwn(helpers, k));
  if (helpers !== undefined && key !== undefined) {
    const field = `credHelpers["${registry}"]`;
    const name = checkedName(stringField(helpers, key, field, refuse) ?? "", field, refuse);
    return name === "" ? undefined : name;
  }
  const store = checkedName(stringField(config, "credsStore", "credsStore", refuse) ?? "", "credsStore", refuse);
  return store === "" ? undefined : store;
}

function checkedName(name: string, field: string, refuse: (what: string) => CocoonError): string {
  if (name === "") return name;
  const problem = helperNameProblem(name);
  if (problem !== undefined) throw refuse(`${field}: the helper name ${problem}`);
  return name;
}

/** `https://index.docker.io/v1/` → `index.docker.io`; `ghcr.io` → `ghcr.io`. */
function hostOf(key: string): string {
  const host = key.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/")[0] ?? "";
  return host === "docker.io" || host === "registry-1.docker.io" ? "index.docker.io" : host;
}

function fromAuths(config: Json, server: string, registry: string, refuse: (what: string) => CocoonError): RegistryCredentials | undefined {
  const auths = objectField(config, "auths", "auths", refuse);
  if (auths === undefined) return undefined;
  const key = Object.hasOwn(auths, server) ? server : Object.keys(auths).find((k) => hostOf(k) === registry);
  if (key === undefined) return undefined;
  const name = `auths["${registry}"]`;
  const entry = objectField(auths, key, name, refuse);
  if (entry === undefined) return undefined;
  const field = (f: string): string => stringField(entry, f, `${name}.${f}`, refuse) ?? "";
  const identityToken = field("identitytoken");
  if (identityToken !== "") return { identityToken };
  const auth = field("auth");
  if (auth !== "") {
    const decoded = Buffer.from(auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) throw refuse(`${name}.auth is not base64 "user:password"`);
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const username = field("username");
  const password = field("password");
  return username === "" && password === "" ? undefined : { username, password };
}
