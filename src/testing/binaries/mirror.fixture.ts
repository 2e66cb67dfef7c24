/**
 * Test fixture: a mirror, a real HTTP server on 127.0.0.1 whose routes a test sets, and real release
 * archives built from the cached binaries (envtest's and the distribution registry's). Used by the
 * download tests only.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { controlPlaneCacheRoot, registryCacheDir } from "./cache.js";
import { runCommand } from "./command.js";
import { KUBERNETES_VERSION } from "./versions.js";

/** One served path: a file, a text body, a status, or a body that stalls after its first bytes. */
export type Route = { file: string } | { text: string } | { status: number } | { stallAfter: string };

/** A running mirror; `routes` may be changed between requests. */
export interface Mirror {
  base: string;
  routes: Map<string, Route>;
  requests: string[];
  close(): Promise<void>;
}

/** The cached control-plane binaries (of the default release, whatever COCOON_KUBERNETES_VERSION says) the archive is built from. */
export const CACHED = join(controlPlaneCacheRoot(), KUBERNETES_VERSION);

/** The cached registry binary the registry archive is built from. */
export const CACHED_REGISTRY = join(registryCacheDir(), "registry");

/**
 * Packs `members` (name → source path) under `controller-tools/envtest/`, as upstream's envtest archive is laid out.
 *
 * @returns The archive path and its sha512 in `sha512sum` format.
 */
export async function packEnvtestArchive(
  dir: string,
  name: string,
  members: Record<string, string>,
): Promise<{ path: string; sha512: string }> {
  const nested = Object.entries(members).map(([member, source]): [string, string] => [`controller-tools/envtest/${member}`, source]);
  const { path, sha512 } = await pack(dir, name, Object.fromEntries(nested));
  return { path, sha512: `${sha512}  /${name}\n` };
}

/**
 * Packs `registry` (a source path, or none) with a README.md and LICENSE, as the distribution release's archive is laid out.
 *
 * @returns The archive path and its bare SHA-256, as the release's `.sha256` file holds it.
 */
export async function packRegistryArchive(
  dir: string,
  name: string,
  registry: string | undefined,
): Promise<{ path: string; sha256: string }> {
  const readme = { text: "# distribution\n" };
  const { path, sha256 } = await pack(dir, name, {
    "README.md": readme,
    LICENSE: { text: "Apache License 2.0\n" },
    ...(registry && { registry }),
  });
  return { path, sha256 };
}

/** Packs `members` (path in the archive → source file or text) into `<dir>/<name>`, a `.tar.gz`. */
async function pack(
  dir: string,
  name: string,
  members: Record<string, string | { text: string }>,
): Promise<{ path: string; sha256: string; sha512: string }> {
  const tree = join(dir, `${name}.tree`);
  for (const [member, source] of Object.entries(members)) {
    await mkdir(dirname(join(tree, member)), { recursive: true });
    await (typeof source === "string" ? symlink(source, join(tree, member)) : writeFile(join(tree, member), source.text));
  }
  const path = join(dir, name);
  await runCommand("tar", ["--dereference", "--use-compress-program=gzip -1", "-cf", path, "-C", tree, "."]);
  const bytes = await readFile(path);
  return { path, sha256: createHash("sha256").update(bytes).digest("hex"), sha512: createHash("sha512").update(bytes).digest("hex") };
}

/** Starts the mirror on a free 127.0.0.1 port; unknown paths answer 404. */
export async function startMirror(): Promise<Mirror> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const stalled = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const route = routes.get(req.url ?? "") ?? { status: 404 };
    if ("file" in route) return void createReadStream(route.file).pipe(res);
    if ("text" in route) return void res.end(route.text);
    if ("stallAfter" in route) {
      stalled.add(res);
      res.writeHead(200, { "content-length": "1000000" });
      return void res.write(route.stallAfter);
    }
    res.writeHead(route.status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
