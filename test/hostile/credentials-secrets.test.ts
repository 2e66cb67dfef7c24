/**
 * No secret leaves a credential source through an error (rule 2 of issue 19): not a helper's
 * output, not the text of a broken `config.json`. Each error is checked with its whole cause chain,
 * as a message, `String()`, `JSON.stringify` and `util.inspect`.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { dockerConfigCredentials } from "../../src/oci/index.js";

const SECRET = "hunter2-s3cret";
let dir: string;
const pathBefore = process.env.PATH;

/** Every view of `err` and of each error on its cause chain. */
function views(err: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  for (let e = err; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    out.push(
      Object.prototype.toString.call(e),
      `${e as Error}`,
      JSON.stringify(e) ?? "",
      inspect(e, { depth: Infinity, showHidden: true }),
    );
    if (e instanceof Error) out.push(e.message, e.stack ?? "");
  }
  return out;
}

async function failureOf(config: string, registry = "ghcr.io"): Promise<unknown> {
  const path = join(dir, `config-${Math.random()}.json`);
  await writeFile(path, config);
  return dockerConfigCredentials({ path, helperTimeoutMs: 5000 })(registry).then(
    () => new Error("expected a rejection"),
    (err: unknown) => err,
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cocoon-hostile-secrets-"));
  await mkdir(join(dir, "bin"));
  const helpers: Record<string, string> = {
    "fails-loudly": `echo "error getting credentials: token=${SECRET}"\nexit 1`,
    "not-json": `echo "Username=bot Secret=${SECRET}"`,
    "bad-json": `printf '{"Username":"bot","Secret":"${SECRET}"'`,
  };
  for (const [name, body] of Object.entries(helpers)) {
    const file = join(dir, "bin", `docker-credential-${name}`);
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
  }
  process.env.PATH = `${join(dir, "bin")}:${pathBefore ?? ""}`;
});
afterAll(async () => {
  process.env.PATH = pathBefore;
  await rm(dir, { recursive: true, force: true });
});

describe("credential source errors keep secrets out", () => {
  it.each([
    ["a helper that fails printing the secret", "fails-loudly", "exit status 1"],
    ["a helper whose answer is not JSON", "not-json", "answer is not JSON"],
    ["a helper whose JSON answer is cut short", "bad-json", "answer is not JSON"],
  ])("%s", async (_, helper, why) => {
    const err = await failureOf(JSON.stringify({ credsStore: helper }));
    expect(isCocoonError(err, "ERR_REGISTRY_UNAUTHORIZED")).toBe(true);
    expect((err as Error).message).toBe(`credential helper docker-credential-${helper} for ghcr.io: ${why}`);
    expect((err as Error).cause).toBeUndefined();
    for (const view of views(err)) expect(view).not.toContain(SECRET);
  });

  it.each([
    ["broken JSON around a password (V8 quotes the text near the fault)", `{"auths":{"ghcr.io":{"password":${SECRET}}}}`],
    ["a bare secret", SECRET],
    ["a config cut short after the secret", `{"auths":{"ghcr.io":{"auth":"${SECRET}`],
  ])("a config.json that is %s", async (_, text) => {
    const err = await failureOf(text);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toMatch(/^docker config .*\.json is not JSON$/);
    expect((err as Error).cause).toBeUndefined();
    for (const view of views(err)) expect(view).not.toContain(SECRET);
  });

  it("an auths entry that is a string holding the secret is refused without quoting it", async () => {
    const err = await failureOf(JSON.stringify({ auths: { "ghcr.io": `bot:${SECRET}` } }));
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toMatch(/^docker config .*\.json: auths\["ghcr\.io"\] is not an object$/);
    for (const view of views(err)) expect(view).not.toContain(SECRET);
  });
});
