import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryPoints, root } from "./consumer.js";
import { launchHeadless, type Headless } from "./headless.js";
import { brokenLinks } from "./site-links.js";

// A diagram is drawn once mermaid has put an <svg> (the diagram or its error) into every block.
const DIAGRAMS_DRAWN = `[...document.querySelectorAll("div.mermaid")].every((d) => d.querySelector("svg") !== null)`;

// The API reference as `npm run docs` builds it (treatWarningsAsErrors), checked as a reader's browser shows it.
describe("the API reference in headless Chromium", () => {
  let site = "";
  let log = "";
  let browser: Headless | undefined;
  beforeAll(async () => {
    browser = await launchHeadless();
    site = mkdtempSync(join(tmpdir(), "cocoon-reference-"));
    const typedoc = join(root, "node_modules/typedoc/bin/typedoc");
    log = execFileSync(process.execPath, [typedoc, "--out", site, "--logLevel", "Verbose"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }, 180_000);
  afterAll(() => {
    browser?.close();
    rmSync(site, { recursive: true, force: true });
  });

  it("builds with zero warnings (every export documented, every link resolved)", () => {
    expect(log).toContain("Loaded plugin");
    expect(log).toContain("html generated at");
    expect(log).not.toMatch(/\[warning\]|\[error\]/);
  });

  it("has no broken link: every href and src is a file of the site or an https URL", () => {
    expect(readdirSync(join(site, "documents"))).toEqual(expect.arrayContaining(["Differences_from_Go.html", "Go_→_TS_map.html"]));
    expect(brokenLinks(site)).toEqual([]);
  });

  it("renders the seat-release sequence diagram as an SVG, not as text", async () => {
    const dom = (await browser?.renderedDom(join(site, "documents/The_seat_release.html"), DIAGRAMS_DRAWN)) ?? "";
    expect(dom).toMatch(/<svg [^>]*aria-roledescription="sequence"/);
    expect(dom).not.toMatch(/aria-roledescription="error"/);
    expect(dom).not.toContain('<code class="mermaid">');
  }, 120_000);

  it("names every module page by its import path, one page per entry point", async () => {
    const titles: (string | undefined)[] = [];
    for (const page of readdirSync(join(site, "modules"))) {
      const dom = (await browser?.renderedDom(join(site, "modules", page))) ?? "";
      titles.push(/<h1>Module ([^<]+)<\/h1>/.exec(dom)?.[1]);
    }
    expect(titles.sort()).toEqual([...entryPoints].sort());
  }, 180_000);

  it("groups each module's exports by topic, in the plugin's order, never by kind", () => {
    const sections = (module: string): string[] => {
      const page = readFileSync(join(site, "modules", `_cocoonstack_cocoon-common${module}.html`), "utf8");
      return [...new Set([...page.matchAll(/data-key="section-([^"]+)"/g)].map((m) => m[1] ?? ""))];
    };
    expect(sections("_meta")).toEqual(["Keys", "Virtual kubelet decisions", "Pods", "Contracts", "Schemas", "Errors"]); // marshalGoJSON, its one Go JSON export, left the surface
    expect(sections("_apis_v1")).toEqual(["Keys", "CRDs", "RBAC", "Schemas"]);
    expect(sections("_k8s")).toEqual(["Watches", "Virtual kubelet", "Admission", "Patches", "Clients", "References"]);
    expect(sections("_oci")).toEqual(["Registry", "Errors"]); // indentGoJSON, its one Go JSON export, left the surface
    expect(sections("_snapshot")).toEqual(["Snapshots"]);
    expect(sections("_testing")).toEqual(["Control plane", "Test registry", "RBAC checks", "Test binaries"]);
    expect(sections("")).toEqual(["References"]);
  });

  it("puts every symbol's page under the subpath a user imports it from, never the root", () => {
    const pages = ["classes", "functions", "interfaces", "types", "variables"].flatMap((kind) => readdirSync(join(site, kind)));
    expect(pages.length).toBeGreaterThan(400);
    expect(
      pages.filter((page) => !/^_cocoonstack_cocoon-common_(meta|apis_v1|k8s|kubelet|oci|snapshot|snapshot_export|testing)\./.test(page)),
    ).toEqual([]);
  });

  it("shows a schema's summary before its expanded zod type", () => {
    const file = readdirSync(join(site, "variables")).find((f) => f.endsWith(".CocoonSetSchema.html"));
    const page = readFileSync(join(site, "variables", file ?? "missing"), "utf8");
    const summary = page.indexOf('<div class="tsd-comment tsd-typography">');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(page.indexOf('<div class="tsd-signature">'));
  });
});
