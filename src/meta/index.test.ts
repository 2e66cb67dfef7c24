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
];

const metaDir = path.dirname(fileURLToPath(import.meta.url));
const errorsFile = path.resolve(metaDir, "../errors.ts");

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return entry.name.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(entry.name) ? [full] : [];
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

  it.each(productFiles(metaDir).map((file) => [path.relative(metaDir, file), file]))(
    "%s imports only ./meta modules and ../errors.js",
    (_name, file) => {
      for (const specifier of runtimeSpecifiers(file)) {
        expect(specifier.startsWith("./") || specifier.startsWith("../"), `${specifier} is a package import`).toBe(true);
        const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
        const inside = target.startsWith(metaDir + path.sep) || target === errorsFile;
        expect(inside, `${specifier} leaves ./meta`).toBe(true);
      }
    },
  );

  it("../errors.ts imports nothing", () => {
    expect(runtimeSpecifiers(errorsFile)).toEqual([]);
  });

  it("the scanner sees value imports and skips type-only ones", () => {
    expect(runtimeSpecifiers(path.join(metaDir, "vmname.ts"))).toEqual(["./internal/safe-read.js", "./internal/strconv.js", "./keys.js", "./owner.js"]);
  });
});
