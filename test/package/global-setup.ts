/**
 * Vitest `globalSetup` of the `package` project: packs the package ONCE, the way `npm publish`
 * would from a fresh clone (a copy of the checkout without `dist/`, so `prepack` must build it),
 * and hands the tarball to the test files (`inject("packed")`).
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed package: the tarball's path and the files `npm pack` put in it. */
    packed: { tarball: string; files: string[] };
  }
}

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Packs a clean copy of the checkout; returns the teardown that removes it. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "cocoon-packed-"));
  const clone = join(dir, "clone");
  const list = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  for (const file of list.split("\0").filter((f) => f !== "")) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: clone,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  // prepack's build output comes first on stdout; npm's JSON report starts at a line of its own.
  const [report] = JSON.parse(out.slice(out.search(/^\[$/m))) as { filename: string; files: { path: string }[] }[];
  if (report === undefined) throw new Error("npm pack reported no tarball");
  project.provide("packed", { tarball: join(dir, report.filename), files: report.files.map((f) => f.path).sort() });
  return () => rmSync(dir, { recursive: true, force: true });
}
