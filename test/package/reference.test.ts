import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryPoints, root } from "./consumer.js";

// Debian's chromium, which .ci/run installs when it is missing; CHROMIUM names another binary.
const chromium = process.env.CHROMIUM ?? "chromium";

/** The page's DOM after its scripts ran (virtual time lets mermaid finish without real waiting). */
function renderedDom(file: string): string {
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000", "--dump-dom", pathToFileURL(file).href];
  try {
    return execFileSync(chromium, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 90_000, maxBuffer: 64 << 20 });
  } catch (err) {
    throw new Error(`headless ${chromium} failed on ${file} (install Debian's chromium, or set CHROMIUM): ${(err as Error).message}`, {
      cause: err,
    });
  }
}

// The API reference as `npm run docs` builds it (treatWarningsAsErrors), checked as a reader's browser shows it.
describe("the API reference in headless Chromium", () => {
  let site = "";
  let log = "";
  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), "cocoon-reference-"));
    const typedoc = join(root, "node_modules/typedoc/bin/typedoc");
    log = execFileSync(process.execPath, [typedoc, "--out", site, "--logLevel", "Verbose"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }, 180_000);
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it("builds with zero warnings (every export documented, every link resolved)", () => {
    expect(log).toContain("Loaded plugin");
    expect(log).toContain("html generated at");
    expect(log).not.toMatch(/\[warning\]|\[error\]/);
  });

  it("renders the seat-release sequence diagram as an SVG, not as text", () => {
    const dom = renderedDom(join(site, "documents/The_seat_release.html"));
    expect(dom).toMatch(/<svg [^>]*aria-roledescription="sequence"/);
    expect(dom).not.toMatch(/aria-roledescription="error"/);
    expect(dom).not.toContain('<code class="mermaid">');
  }, 120_000);

  it("names every module page by its import path, one page per entry point", () => {
    const pages = readdirSync(join(site, "modules"));
    const titles = pages.map((page) => /<h1>Module ([^<]+)<\/h1>/.exec(renderedDom(join(site, "modules", page)))?.[1]);
    expect(titles.sort()).toEqual([...entryPoints].sort());
  }, 180_000);

  it("shows a schema's summary before its expanded zod type", () => {
    const file = readdirSync(join(site, "variables")).find((f) => f.endsWith(".CocoonSetSchema.html"));
    const page = readFileSync(join(site, "variables", file ?? "missing"), "utf8");
    const summary = page.indexOf('<div class="tsd-comment tsd-typography">');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(page.indexOf('<div class="tsd-signature">'));
  });
});
