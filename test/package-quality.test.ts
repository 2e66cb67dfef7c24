import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name: string) => join(root, "node_modules/.bin", name);

function run(cmd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(cmd, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (err) {
    const { status, stdout, stderr } = err as { status: number; stdout: string; stderr: string };
    return { code: status, out: `${stdout}${stderr}` };
  }
}

// The published shape is checked the way consumers' tools see it (needs the build from `npm test`).
describe("package quality", () => {
  it("publint reports nothing, warnings included", () => {
    const { code, out } = run(bin("publint"), ["run", "--strict", "--level", "suggestion"]);
    expect(out).not.toMatch(/Suggestions?:|Warnings?:|Errors?:/);
    expect(code).toBe(0);
  }, 60_000);

  it("arethetypeswrong finds no problem in any entry point", () => {
    // Packed without scripts: `prepack` would rebuild dist/ under the feet of the tests running beside this one.
    const dir = mkdtempSync(join(tmpdir(), "cocoon-attw-"));
    const tarball = run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]).out.trim();
    const { code, out } = run(bin("attw"), [join(dir, tarball), "--profile", "esm-only", "--format", "json"]);
    rmSync(dir, { recursive: true, force: true });
    const report = JSON.parse(out.slice(out.indexOf("{"))) as { analysis: { problems: { kind: string; resolutionKind?: string }[] } };
    // The esm-only profile: node10 and require-from-CJS resolutions are out of scope for an ESM-only package
    // (Node loads it with require(esm), which the CommonJS test in package/pack.test.ts proves).
    const ignored = new Set(["node10", "node16-cjs"]);
    expect(report.analysis.problems.filter((p) => !ignored.has(p.resolutionKind ?? ""))).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);
});
