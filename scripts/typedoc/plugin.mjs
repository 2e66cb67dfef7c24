// @ts-check
// TypeDoc plugin for the API reference (typedoc.json `plugin`):
// - names each module by its import path, from package.json `exports`
//   (`@cocoonstack/cocoon-common/meta`, not "meta" or "index"), so every page says where to import from;
// - renders ```mermaid blocks as SVG in the browser, with the mermaid bundle copied into the site
//   (no CDN: the reference works offline and from file://);
// - puts the summary of a zod schema before its expanded type, which runs to pages;
// - groups each module's exports by topic (TOPICS, from the file that declares them), not by kind.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { Application, CommentTag, Converter, DefaultTheme, DefaultThemeRenderContext, JSX, ReflectionKind, RendererEvent } from "typedoc";

const require = createRequire(import.meta.url);
const MERMAID = "assets/mermaid.min.js";

/**
 * Maps an entry point file (`src/meta/index.ts`) to its import path, through the export whose
 * types are its built declarations (`./meta` → `./dist/meta/index.d.ts`).
 * @param {string} root
 * @returns {Map<string, string>}
 */
function importPaths(root) {
  /** @type {{ name: string, exports: Record<string, string | { types?: string }> }} */
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const paths = new Map();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === "string" ? undefined : target.types;
    if (types === undefined) continue;
    const source = types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts");
    paths.set(source, subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);
  }
  return paths;
}

/**
 * The topic of an export, by the file that declares it: the first pattern that matches. An export
 * no pattern matches is a warning, so the build (treatWarningsAsErrors) fails until it has one.
 * @type {readonly (readonly [RegExp, string])[]}
 */
const TOPICS = [
  [/^src\/meta\/(keys|annotation-kinds|objects)\.ts$|^src\/apis\/v1\/groupversion-info\.ts$/, "Keys"],
  [/^src\/meta\/kubelet\//, "Virtual kubelet decisions"],
  [/^src\/meta\/(pods\/|pod\.ts$|affinity\.ts$|owner\.ts$)/, "Pods"],
  [/^src\/meta\//, "Contracts"],
  [/^src\/apis\/v1\/crd(-types)?\.ts$/, "CRDs"],
  [/^src\/apis\/v1\/rbac/, "RBAC"],
  [/^src\/apis\/v1\/|^src\/internal\/crd-markers\.ts$/, "Schemas"],
  [/^src\/k8s\/watch\//, "Watches"],
  [/^src\/(k8s\/)?kubelet\//, "Virtual kubelet"],
  [/^src\/k8s\/admission\//, "Admission"],
  [/^src\/k8s\/patch\//, "Patches"],
  [/^src\/k8s\//, "Clients"],
  [/^src\/oci\//, "Registry"],
  [/^src\/snapshot\//, "Snapshots"],
  [/^src\/internal\/go\//, "Go JSON"],
  [/^src\/errors\.ts$/, "Errors"],
  [/^src\/testing\/control-plane\//, "Control plane"],
  [/^src\/testing\/registry\//, "Test registry"],
  [/^src\/testing\/rbac\//, "RBAC checks"],
  [/^src\/testing\//, "Test binaries"],
];

/** Summary first, then the declaration as TypeDoc renders it, for zod schemas (`...Schema` variables). */
class CocoonThemeContext extends DefaultThemeRenderContext {
  /** @param {ConstructorParameters<typeof DefaultThemeRenderContext>} args */
  constructor(...args) {
    super(...args);
    const base = this.memberDeclaration;
    this.memberDeclaration = (props) => {
      const comment = props.comment;
      if (!props.kindOf(ReflectionKind.Variable) || !props.name.endsWith("Schema") || comment === undefined) return base(props);
      const summary = this.commentSummary(props);
      const saved = comment.summary;
      comment.summary = [];
      try {
        return JSX.createElement(JSX.Fragment, null, summary, base(props));
      } finally {
        comment.summary = saved;
      }
    };
  }
}

class CocoonTheme extends DefaultTheme {
  ContextClass = CocoonThemeContext;
}

// Turns <pre><code class="mermaid"> into <div class="mermaid"> and renders it, loading the bundle
// only on pages that have a diagram.
const MERMAID_LOADER = `(() => {
  const blocks = document.querySelectorAll("pre > code.mermaid");
  if (blocks.length === 0) return;
  for (const code of blocks) {
    const div = document.createElement("div");
    div.className = "mermaid";
    div.textContent = code.textContent;
    code.parentElement.replaceWith(div);
  }
  const script = document.createElement("script");
  script.src = document.documentElement.dataset.base + "${MERMAID}";
  script.onload = () => {
    const dark = document.documentElement.dataset.theme === "dark" || (document.documentElement.dataset.theme !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
    mermaid.initialize({ startOnLoad: false, theme: dark ? "dark" : "default" });
    mermaid.run();
  };
  document.body.append(script);
})();`;

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.renderer.defineTheme("cocoon", CocoonTheme);

  // After link resolution (priority -300), so `{@link meta!x}` in the guides still finds "meta".
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const root = process.cwd();
      const paths = importPaths(root);
      for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
        const file = context.project.getSymbolIdFromReflection(module)?.fileName;
        const importPath = file === undefined ? undefined : paths.get(relative(root, file));
        if (importPath === undefined)
          app.logger.warn(`cocoon plugin: module ${module.name} (${file}) is no entry point of package.json exports`);
        else module.name = importPath;
      }
    },
    -400,
  );

  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    app.options.setValue("groupOrder", [...new Set(TOPICS.map(([, topic]) => topic)), "*"]);
  });

  // Before TypeDoc's own grouping (priority -100), which reads the `@group` tags.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const root = process.cwd();
      for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
        for (const child of module.children ?? []) {
          const comment = child.comment ?? child.signatures?.[0]?.comment;
          if (child.kindOf(ReflectionKind.Reference) || comment === undefined) continue;
          const file = context.project.getSymbolIdFromReflection(child)?.fileName;
          const source = file === undefined ? "" : relative(root, file);
          const topic = TOPICS.find(([pattern]) => pattern.test(source))?.[1];
          if (topic === undefined) app.logger.warn(`cocoon plugin: ${child.name} (${source}) has no topic in TOPICS`);
          else comment.blockTags.push(new CommentTag("@group", [{ kind: "text", text: topic }]));
        }
      }
    },
    0,
  );

  app.renderer.hooks.on("body.end", () => JSX.createElement("script", null, JSX.createElement(JSX.Raw, { html: MERMAID_LOADER })));

  app.renderer.on(RendererEvent.END, (event) => {
    mkdirSync(join(event.outputDirectory, "assets"), { recursive: true });
    copyFileSync(require.resolve("mermaid/dist/mermaid.min.js"), join(event.outputDirectory, MERMAID));
  });
}
