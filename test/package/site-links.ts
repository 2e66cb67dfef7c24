/**
 * The link checker of the API reference: every `href` and `src` of every page of the generated
 * site names a file of the site, or is an https URL. Typedoc turns a bare `BENCHMARKS.md` into
 * `http://BENCHMARKS.md`; that, and a relative link to a file the site lacks, is broken.
 *
 * @module
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The broken links of the site in `site`, as `page: link` (empty when there are none). */
export function brokenLinks(site: string): string[] {
  const pages = readdirSync(site, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html"));
  return pages.flatMap((page) => {
    const html = readFileSync(join(site, page), "utf8");
    const links = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1] ?? "");
    return links.flatMap((link) => {
      if (link.startsWith("https://") || link.startsWith("#") || link === "") return [];
      const path = decodeURIComponent(link.replace(/[?#].*$/, ""));
      const ok = !/^[a-z][\w+.-]*:/i.test(link) && !link.startsWith("//") && existsSync(join(dirname(join(site, page)), path));
      return ok ? [] : [`${relative(site, join(site, page))}: ${link}`];
    });
  });
}
