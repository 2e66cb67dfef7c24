/**
 * Test fixture: a real envtest archive built from the cached binaries, served by a real HTTP
 * server on 127.0.0.1 in setup-envtest's layout. Used by the download tests only.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, symlink } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { controlPlaneCacheRoot } from "./cache-dir.js";
import { runCommand } from "./run-command.js";
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

/**
 * Packs `members` (name → source path) under `controller-tools/envtest/`, as upstream's archive is laid out.
 *
 * @returns The archive path and its sha512 in `sha512sum` format.
 */
export async function packEnvtestArchive(
  dir: string,
  name: string,
  members: Record<string, string>,
): Promise<{ path: string; sha512: string }> {
  const tree = join(dir, `${name}.tree`);
  await mkdir(join(tree, "controller-tools", "envtest"), { recursive: true });
  for (const [member, source] of Object.entries(members)) await symlink(source, join(tree, "controller-tools", "envtest", member));
  const path = join(dir, name);
  await runCommand("tar", ["--dereference", "--use-compress-program=gzip -1", "-cf", path, "-C", tree, "controller-tools"]);
  const hash = createHash("sha512")
    .update(await readFile(path))
    .digest("hex");
  return { path, sha512: `${hash}  /${name}\n` };
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
