// Lint as the anchors do: typescript-eslint's strict and stylistic type-checked rules, documented
// exports, and an import fence: ./meta free of dependencies, ./apis/v1 free of the Kubernetes client
// and of ./meta, no entry point inside another's internal/ folder, src/internal below them all, and
// src/internal/go reached through its index. Formatting is prettier's (.prettierrc.json);
// eslint-config-prettier turns off every rule that would fight it. Rules tuned below say why next
// to the setting.
import js from "@eslint/js";
import prettier from "eslint-config-prettier/flat";
import jsdoc from "eslint-plugin-jsdoc";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

const TESTS = ["**/*.test.ts", "**/*.test-d.ts", "**/*.test-util.ts", "test/**"];
const CLIENT_NODE = { name: "@kubernetes/client-node", message: "Only src/k8s (and what builds on it) may load the Kubernetes client." };
const CLIENT_NODE_DEEP = { group: ["@kubernetes/client-node/*"], message: CLIENT_NODE.message };
const INTO_K8S = { regex: String.raw`(^|/)k8s/`, message: "src/k8s loads the Kubernetes client; ./meta and ./apis/v1 must not." };
const ZOD = { name: "zod", message: "./meta loads nothing at run time; zod belongs to ./apis/v1." };
const ZOD_DEEP = { group: ["zod/*"], message: "./meta loads nothing at run time." };
const INTO_META = { regex: String.raw`(^|/)meta/`, message: "./apis/v1 sits below ./meta: what both need lives in src/internal/." };
const GO_LAYER = { regex: String.raw`(^|/)internal/go/(?!index\.js$)`, message: "src/internal/go/ is reached through its index.js only." };
/** The entry points' source folders: each may have an internal/ folder of its own. */
const ENTRIES = ["meta", "apis/v1", "k8s", "oci", "snapshot", "testing", "cli"];
/**
 * Refuses, in `entry`, an import of another entry point's internal/ folder.
 *
 * @param {string} entry
 */
const intoInternalOf = (entry) => ({
  regex: String.raw`(^|/)(${ENTRIES.filter((e) => e !== entry).join("|")})/(.+/)?internal/`,
  message: "An entry point never imports another's internal/ folder: what they share lives in src/internal/.",
});
const INTO_ENTRY = {
  regex: String.raw`(^|/)(apis|${ENTRIES.join("|")})/`,
  message: "src/internal/ sits below every entry point and imports none of them.",
};
/**
 * The import fence of the product files under `files`.
 *
 * @param {string[]} files
 * @param {{ paths?: object[], patterns?: object[] }} restricted
 * @param {string[]} [ignores]
 */
const fence = (files, { paths = [], patterns = [] }, ignores = []) => ({
  files,
  ignores: [...TESTS, ...ignores],
  rules: { "no-restricted-imports": ["error", { paths, patterns }] },
});

export default defineConfig(
  // Outside the TS project: the untyped TypeDoc plugin and a .d.ts fixture.
  globalIgnores(["dist/", "docs/api/", "coverage/", "conformance/go/", "scripts/typedoc/", "test/package/fixtures/"]),
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["eslint.config.js"] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-import-type-side-effects": "error",
      // Go's strconv.Itoa/FormatInt become interpolation here: numbers and bigints (Int64) print exactly.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // Go's cmp.Or: an empty string (or omitempty's zero number: `meta.mode || 0o640`) means "unset" and must fall through, so `||` on strings is the point.
      "@typescript-eslint/prefer-nullish-coalescing": ["error", { ignorePrimitives: { string: true, number: true } }],
      // One-line arrow bodies (`(i) => check(i, await send(i))`) are the house style for callbacks.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
      // Decoded JSON (admission reviews, kubeconfigs, CRD schemas) is read with brackets on purpose: a
      // key of untrusted data, not a declared property.
      "@typescript-eslint/dot-notation": ["error", { allowIndexSignaturePropertyAccess: true }],
      // As tsc's noUnused*: a leading underscore marks a deliberate omission (`{ status: _dropped, ...rest }`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // A caught error or an abort reason is passed on as it came (only-throw-error allows the same).
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // It prefers `x!` to `x as T`, which no-non-null-assertion then refuses; the stricter rule wins.
      "@typescript-eslint/non-nullable-type-assertion-style": "off",
      // Annotations and JSON schemas are records used as maps, as in Go; `delete` is Go's delete.
      "@typescript-eslint/no-dynamic-delete": "off",
      // client-node's models are classes of public fields whose serializer takes plain objects; the
      // library passes plain JSON on purpose (structural types, STYLE.md §7), so this rule fights the design.
      "@typescript-eslint/no-unsafe-class-instance-assignment": "off",
    },
  },
  {
    // Tests, benchmarks and the demo index arrays they just built, pass no-op callbacks and spread ASCII
    // alphabets into property-test generators.
    files: [...TESTS, "bench/**", "demo/**"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-empty-function": "off",
      "@typescript-eslint/no-misused-spread": "off",
      // Fakes implement async ports without awaiting, and `async function* () { yield* parts }` makes a body.
      "@typescript-eslint/require-await": "off",
      // Test helpers cast decoded JSON to the caller's type (`fakeApi<T>()`, `readAnchor<T>()`).
      "@typescript-eslint/no-unnecessary-type-parameters": "off",
      // afterAll runs after a failed beforeAll too: `plane?.stop()` on a `let` set there is deliberate.
      "@typescript-eslint/no-unnecessary-condition": "off",
    },
  },
  {
    // Every export is part of the public API report and the TypeDoc site: document it.
    files: ["src/**/*.ts"],
    ignores: TESTS,
    plugins: { jsdoc },
    rules: {
      // No fixer: --fix would insert empty doc blocks, stubs that only look done.
      "jsdoc/require-jsdoc": [
        "error",
        {
          publicOnly: true,
          enableFixer: false,
          require: { FunctionDeclaration: true, ClassDeclaration: true },
          contexts: ["TSInterfaceDeclaration", "TSTypeAliasDeclaration", "ExportNamedDeclaration > VariableDeclaration"],
        },
      ],
    },
  },
  // One fence per folder: a file takes the rule options of the last block that matches it.
  // ./meta loads nothing at run time: no Kubernetes client, no zod, nothing from src/k8s.
  fence(["src/meta/**/*.ts"], {
    paths: [CLIENT_NODE, ZOD],
    patterns: [CLIENT_NODE_DEEP, ZOD_DEEP, INTO_K8S, intoInternalOf("meta"), GO_LAYER],
  }),
  // ./apis/v1 may load zod, never the Kubernetes client, and sits below ./meta.
  fence(["src/apis/**/*.ts"], {
    paths: [CLIENT_NODE],
    patterns: [CLIENT_NODE_DEEP, INTO_K8S, INTO_META, intoInternalOf("apis/v1"), GO_LAYER],
  }),
  ...["k8s", "oci", "snapshot", "testing", "cli"].map((entry) =>
    fence([`src/${entry}/**/*.ts`], { patterns: [intoInternalOf(entry), GO_LAYER] }),
  ),
  // Connection tuning lives in src/k8s/transport/; the rest of src/k8s reaches it through its index only.
  fence(
    ["src/k8s/**/*.ts"],
    {
      patterns: [
        {
          regex: String.raw`(^|/)transport/(?!index\.js$)`,
          message: "src/k8s reaches its connection tuning through src/k8s/transport/index.js only.",
        },
        intoInternalOf("k8s"),
        GO_LAYER,
      ],
    },
    ["src/k8s/transport/**"],
  ),
  // src/internal/ is what the entry points share: it loads no package (./meta loads it) and imports
  // no entry point; its Go layer is reached through its index from outside it.
  fence(["src/internal/**/*.ts"], { paths: [CLIENT_NODE, ZOD], patterns: [CLIENT_NODE_DEEP, ZOD_DEEP, INTO_ENTRY, GO_LAYER] }),
  fence(["src/internal/go/**/*.ts"], { paths: [CLIENT_NODE, ZOD], patterns: [CLIENT_NODE_DEEP, ZOD_DEEP, INTO_ENTRY] }),
  // The examples are documentation: they import the package by its name, as a user does, never its source or the tests.
  fence(["examples/**/*.ts"], {
    patterns: [
      {
        regex: String.raw`^(\.\./)+(src|test)/`,
        message: "An example imports the package by its name (@cocoonstack/cocoon-common/…), as a user does: never src/ or test/.",
      },
    ],
  }),
  prettier,
);
