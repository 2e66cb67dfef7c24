import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ENTRY_POINTS, buildApiReports } from "../scripts/api-report-lib.js";
import { renderRootIndex } from "../scripts/generate-root-index.js";

const root = fileURLToPath(new URL("..", import.meta.url));

// The committed reports pin every exported name and its type: changing the public API fails
// here until `npm run api:report` is rerun and the change is written in CHANGELOG.md.
describe("public API report", () => {
  const reports = buildApiReports(root);

  it.each(ENTRY_POINTS.map((e) => [e.name, e.file] as const))("%s matches %s", (_name, file) => {
    const fresh = reports.find((r) => r.file === file)?.text;
    expect(fresh, `${file} is stale: run npm run api:report and note the change in CHANGELOG.md`).toBe(
      readFileSync(`${root}/${file}`, "utf8"),
    );
  });

  it("src/index.ts is what `npm run generate` renders from the two barrels", () => {
    expect(readFileSync(`${root}/src/index.ts`, "utf8"), "src/index.ts is stale: run npm run generate").toBe(renderRootIndex());
  });

  it("the root entry exports exactly ./meta and ./apis/v1 together", () => {
    const names = (file: string) =>
      new Set(
        (reports.find((r) => r.file === file)?.text ?? "")
          .split("\n")
          .map((line) => /^\S+ (\w+):/.exec(line)?.[1])
          .filter((n): n is string => n !== undefined),
      );
    const union = new Set([...names("api/meta.api.md"), ...names("api/apis-v1.api.md")]);
    expect([...names("api/index.api.md")].sort()).toEqual([...union].sort());
  });
});
