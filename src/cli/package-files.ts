import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GROUP, Plural } from "../apis/v1/groupversion-info.js";
import { CliError, type ParsedArgs, usageError } from "./args.js";
import type { CliIO } from "./io.js";

/** The npm name this CLI ships in. */
export const PACKAGE_NAME = "@cocoonstack/cocoon-common";

/** The shipped CRD manifests, in the order `crds` prints them (controller-gen's file names). */
export const CRD_FILES: readonly string[] = [`${GROUP}_${Plural.CocoonSet}.yaml`, `${GROUP}_${Plural.CocoonHibernation}.yaml`];

/** The shipped ClusterRoles, in the order `rbac` prints them (operator first). */
export const RBAC_FILES: readonly string[] = ["cocoon-operator.clusterrole.yaml", "cocoon-kubelet.clusterrole.yaml"];

function readPackageJSON(dir: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

/**
 * Finds the root of this package by walking up from `from` (a file URL or path) to the first
 * `package.json` named {@link PACKAGE_NAME}. Works from `src/cli` (tsx, vitest), from
 * `dist/cli` or a shared `dist` chunk, and from an installed copy in `node_modules`.
 *
 * @throws `CliError` `ERR_CLI_INPUT` when there is none up to the file-system root.
 */
export function findPackageRoot(from: string = import.meta.url): string {
  let dir = path.dirname(from.startsWith("file:") ? fileURLToPath(from) : from);
  for (;;) {
    if (readPackageJSON(dir)?.name === PACKAGE_NAME) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new CliError("ERR_CLI_INPUT", `cannot find the package.json of ${PACKAGE_NAME} above ${from}`);
    dir = parent;
  }
}

/** Reads the package version from the package's own `package.json` at run time. */
export function packageVersion(root: string = findPackageRoot()): string {
  const version = readPackageJSON(root)?.version;
  if (typeof version !== "string") throw new CliError("ERR_CLI_INPUT", `${path.join(root, "package.json")} has no version`);
  return version;
}

/** Reads the shipped files `names` of the package folder `dir`, in order. */
function shippedFiles(root: string, dir: string, names: readonly string[]): string[] {
  return names.map((name) => {
    const file = path.join(root, dir, name);
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new CliError("ERR_CLI_INPUT", `cannot read ${file}: ${(err as Error).message}`, { cause: err });
    }
  });
}

/**
 * Reads the shipped CRD manifests (`crds/*.yaml`), in {@link CRD_FILES} order.
 *
 * @throws `CliError` `ERR_CLI_INPUT` when one is missing.
 */
export function crdManifests(root: string = findPackageRoot()): string[] {
  return shippedFiles(root, "crds", CRD_FILES);
}

/**
 * Reads the shipped ClusterRoles (`rbac/*.clusterrole.yaml`), in {@link RBAC_FILES} order.
 *
 * @throws `CliError` `ERR_CLI_INPUT` when one is missing.
 */
export function rbacManifests(root: string = findPackageRoot()): string[] {
  return shippedFiles(root, "rbac", RBAC_FILES);
}

/**
 * Runs `cocoon-common crds`: prints the shipped CRD manifests (`crds/*.yaml`, CocoonSet first) as
 * one YAML stream, byte for byte, ready for `kubectl apply -f -`. Resolves to exit status 0.
 *
 * @param parsed - The command's arguments, `--help` already handled.
 * @param packageRoot - Where `crds/` is; found from this file by default.
 * @throws `CliError` for an operand (the command takes none) or a missing manifest (exit status 2).
 */
export async function crdsCommand(parsed: ParsedArgs, io: CliIO, packageRoot?: string): Promise<number> {
  if (parsed.positionals.length > 0) throw usageError(`crds takes no arguments, got '${parsed.positionals[0]}'`);
  io.stdout(crdManifests(packageRoot).join(""));
  return Promise.resolve(0);
}

/**
 * Runs `cocoon-common rbac`: prints the shipped ClusterRoles (`rbac/*.clusterrole.yaml`, the
 * operator's first) as one YAML stream, byte for byte, ready for `kubectl apply -f -`. Resolves to
 * exit status 0.
 *
 * @param parsed - The command's arguments, `--help` already handled.
 * @param packageRoot - Where `rbac/` is; found from this file by default.
 * @throws `CliError` for an operand (the command takes none) or a missing manifest (exit status 2).
 */
export async function rbacCommand(parsed: ParsedArgs, io: CliIO, packageRoot?: string): Promise<number> {
  if (parsed.positionals.length > 0) throw usageError(`rbac takes no arguments, got '${parsed.positionals[0]}'`);
  io.stdout(rbacManifests(packageRoot).join(""));
  return Promise.resolve(0);
}
