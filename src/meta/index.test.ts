import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as meta from "./index.js";

// The value exports CONTRACT.md requires of `./meta`, by name.
const REQUIRED = [
  "Annotation",
  "Label",
  "Role",
  "SnapshotTag",
  "LifecycleState",
  "TOLERATION_KEY",
  "DEFAULT_NODE_POOL",
  "KIND_COCOONSET",
  "readHibernateState",
  "readRestoreFromHibernate",
  "readKeepSnapshotOnDelete",
  "readLifecycleStatus",
  "readLifecycleState",
  "readLifecycleObservedGeneration",
  "readCocoonSetGeneration",
  "readHibernatedOnNode",
  "parseVMSpec",
  "parseVMRuntime",
  "hibernateStateAnnotations",
  "restoreFromHibernateAnnotations",
  "keepSnapshotOnDeleteAnnotations",
  "lifecycleStatusAnnotations",
  "cocoonSetGenerationAnnotations",
  "hibernatedOnNodeAnnotations",
  "vmSpecAnnotations",
  "vmRuntimeAnnotations",
  "applyAnnotations",
  "annotationsMergePatch",
  "annotationsSatisfied",
  "applyHibernateState",
  "markRestoreFromHibernate",
  "markKeepSnapshotOnDelete",
  "applyLifecycleStatus",
  "stampCocoonSetGeneration",
  "applyVMSpec",
  "applyVMRuntime",
  "stashHibernatedOnNode",
  "clearHibernatedOnNode",
  "lifecycleStatusKey",
  "isTerminalLifecycleState",
  "vmNameForDeployment",
  "vmNameForPod",
  "agentVMNamePrefix",
  "extractAgentSlot",
  "inferRoleFromAgentSlot",
  "roleForPod",
  "hasCocoonTolerationKey",
  "isOwnedByCocoonSet",
  "cocoonSetOwnerName",
  "isPodReady",
  "isPodTerminal",
  "isContainerRunning",
  "podKey",
  "podNodePool",
  "connectionType",
  "shouldSnapshotVM",
  "fromAgentSpec",
  "fromToolboxSpec",
  "quantityString",
  "preferredHostnameAffinity",
  "requiredHostnameAffinity",
  "buildAgentPod",
  "buildMainPod",
  "buildSubAgentPod",
  "buildToolboxPod",
  "buildWakePod",
  "podSpecMatchesAgent",
  "podSpecMatchesToolbox",
];

const metaDir = path.dirname(fileURLToPath(import.meta.url));
const errorsFile = path.resolve(metaDir, "../errors.ts");
const apisDir = path.resolve(metaDir, "../apis/v1");
const internalDir = path.resolve(metaDir, "../internal");

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return entry.name.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every `[importer, specifier]` pair the file's run-time import graph holds (relative imports followed). */
function runtimeGraph(file: string, seen = new Set<string>()): [string, string][] {
  if (seen.has(file)) return [];
  seen.add(file);
  return runtimeSpecifiers(file).flatMap((specifier): [string, string][] => {
    const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
    const next = specifier.startsWith(".") ? runtimeGraph(target, seen) : [];
    return [[file, specifier], ...next];
  });
}

/** Module specifiers a file loads at run time (type-only imports and exports are erased). */
function runtimeSpecifiers(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)) {
    if (match[2] === undefined && match[3] !== undefined) specifiers.push(match[3]);
  }
  for (const match of source.matchAll(/^\s*import\s+"([^"]+)"/gm)) if (match[1] !== undefined) specifiers.push(match[1]);
  for (const match of source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) if (match[1] !== undefined) specifiers.push(match[1]);
  return specifiers;
}

describe("./meta public API", () => {
  it.each(REQUIRED)("exports %s", (name) => {
    expect(meta).toHaveProperty(name);
    expect((meta as Record<string, unknown>)[name]).toBeDefined();
  });
});

describe("./meta loads nothing at run time", () => {
  it("finds the product files to check", () => {
    expect(productFiles(metaDir).length).toBeGreaterThan(10);
  });

  // Go's meta imports apis/v1 for the enum values; so may we, as long as nothing on the way loads a
  // package. src/internal holds what the entry points share (the Go layer among it).
  it.each(productFiles(metaDir).map((file) => [path.relative(metaDir, file), file]))(
    "%s imports only ./meta modules, ../errors.js, src/internal and apis/v1 modules that load no package",
    (_name, file) => {
      for (const [importer, specifier] of runtimeGraph(file)) {
        expect(specifier.startsWith("./") || specifier.startsWith("../"), `${importer} imports the package ${specifier}`).toBe(true);
        const target = path.resolve(path.dirname(importer), specifier).replace(/\.js$/, ".ts");
        const inside =
          target.startsWith(metaDir + path.sep) ||
          target === errorsFile ||
          target.startsWith(internalDir + path.sep) ||
          target.startsWith(apisDir + path.sep);
        expect(inside, `${importer} imports ${specifier}, outside ./meta, src/internal and apis/v1`).toBe(true);
      }
    },
  );

  it("reaches apis/v1 only for the zod-free enums, their guards and the kinds", () => {
    const reached = productFiles(metaDir)
      .flatMap((file) => runtimeGraph(file))
      .map(([importer, specifier]) => path.resolve(path.dirname(importer), specifier).replace(/\.js$/, ".ts"))
      .filter((target) => target.startsWith(apisDir + path.sep))
      .map((target) => path.relative(apisDir, target));
    expect([...new Set(reached)].sort()).toEqual(["enum-guards.ts", "enums.ts", "groupversion-info.ts"]);
  });

  it("../errors.ts imports nothing", () => {
    expect(runtimeSpecifiers(errorsFile)).toEqual([]);
  });

  it("the scanner sees value imports and skips type-only ones", () => {
    expect(runtimeSpecifiers(path.join(metaDir, "vmname.ts"))).toEqual([
      "../internal/go/index.js",
      "../internal/safe-read.js",
      "./keys.js",
      "./owner.js",
    ]);
  });
});
