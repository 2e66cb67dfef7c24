/**
 * Fresh consumer projects for the packed package: `npm install` of the tarball and its peers into
 * an empty folder outside this repository, as a user would.
 *
 * @module
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};
const execFileAsync = promisify(execFile);

/** Runs a command in `cwd`; rejects with its output when it fails. */
export async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await execFileAsync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 })).stdout;
  } catch (err) {
    const { stdout = "", stderr = "", message } = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${message}\n${stdout}${stderr}`, { cause: err });
  }
}

/** Runs the repository's TypeScript compiler on the project in `cwd`. */
export const tsc = (cwd: string, ...args: string[]) => run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), ...args], cwd);

/** Every import specifier the package exports, from package.json (`./crds/*` and `./package.json` aside). */
export const entryPoints = Object.keys(pkg.exports)
  .filter((sub) => !sub.includes("*") && sub !== "./package.json")
  .map((sub) => (sub === "." ? pkg.name : `${pkg.name}${sub.slice(1)}`));

/** A consumer project: its folder, and `dispose` to remove it. */
export interface Consumer {
  dir: string;
  dispose(): void;
}

/** What {@link createConsumer} installs beyond the package, zod and `@types/node`. */
export interface ConsumerOptions {
  /** Installs client-node and `@types/ws` (default `true`); `false` is a virtual kubelet's project. */
  clientNode?: boolean;
}

/**
 * Creates a project whose package.json has `type`, and installs the packed package with zod,
 * client-node (unless `options.clientNode` is `false`), their types, and `extra` packages. Install
 * scripts are skipped: the engines check refuses this repository's development Node, and the CI
 * matrix proves it on a real Node 20.
 */
export async function createConsumer(
  type: "module" | "commonjs",
  extra: string[] = [],
  { clientNode = true }: ConsumerOptions = {},
): Promise<Consumer> {
  const dir = mkdtempSync(join(tmpdir(), `cocoon-consumer-${type}-`));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type }));
  const dev = pkg.devDependencies;
  // @types/ws: client-node's own declarations import "ws" types; its users install them too.
  const peers = [
    `zod@${dev.zod}`,
    `@types/node@${dev["@types/node"]}`,
    ...(clientNode ? [`@kubernetes/client-node@${dev["@kubernetes/client-node"]}`, "@types/ws@8"] : []),
  ];
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", inject("packed").tarball, ...peers, ...extra],
    dir,
  );
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Makes a package of this repository's node_modules (e.g. vitest, for the testing guide) resolvable in `dir`. */
export function linkDevPackage(dir: string, name: string): void {
  symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name), "dir");
}
