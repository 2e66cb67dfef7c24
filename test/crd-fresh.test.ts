/**
 * Fails when the committed `crds/*.yaml`, the package's CRD data (`src/apis/v1/crd-data.generated.ts`) or
 * `rbac/*.clusterrole.yaml` differ from what `npm run generate` would write now.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cocoonHibernationCRD, cocoonSetCRD } from "../src/apis/v1/crd.js";
import { renderCocoonHibernationCRD, renderCocoonSetCRD } from "../src/apis/v1/crd-render.js";
import { cocoonKubeletClusterRole, cocoonOperatorClusterRole } from "../src/apis/v1/index.js";
import {
  CRD_DATA_FILE,
  CRDS_DIR,
  GENERATED_HEADER,
  RBAC_DIR,
  RBAC_GENERATED_HEADER,
  renderCRDData,
  renderCRDFiles,
  renderRBACFiles,
} from "../scripts/generate-crds.js";

describe.each([
  { dir: "crds/", path: CRDS_DIR, header: GENERATED_HEADER, render: renderCRDFiles },
  { dir: "rbac/", path: RBAC_DIR, header: RBAC_GENERATED_HEADER, render: renderRBACFiles },
])("$dir is up to date (run `npm run generate` to fix)", ({ path: dir, header, render }) => {
  const rendered = render();

  it("holds exactly the generated manifests", () => {
    const committed = readdirSync(dir)
      .filter((name) => name.endsWith(".yaml"))
      .sort();
    expect(committed).toEqual(Object.keys(rendered).sort());
  });

  it.each(Object.entries(rendered))("%s matches a fresh render byte for byte", (name, text) => {
    expect(readFileSync(path.join(dir, name), "utf8")).toBe(text);
  });

  it.each(Object.entries(rendered))("%s starts with the generated-file comment", (_name, text) => {
    expect(text.startsWith(`${header}\n---\n`)).toBe(true);
  });

  it("renders deterministically", () => {
    expect(render()).toEqual(rendered);
  });
});

describe("rbac/", () => {
  it("holds the operator's and the virtual kubelet's ClusterRoles, parsing back to the exported objects", () => {
    const rendered = renderRBACFiles();
    expect(Object.keys(rendered)).toEqual(["cocoon-operator.clusterrole.yaml", "cocoon-kubelet.clusterrole.yaml"]);
    expect(Object.values(rendered).map((text) => parse(text) as unknown)).toEqual([cocoonOperatorClusterRole, cocoonKubeletClusterRole]);
  });
});

describe("the package's CRD objects are the generated data, not a render by the installed zod", () => {
  it("crd-data.generated.ts matches a fresh render byte for byte", () => {
    expect(readFileSync(CRD_DATA_FILE, "utf8")).toBe(renderCRDData());
  });

  it("cocoonSetCRD and cocoonHibernationCRD equal a fresh render", () => {
    expect(cocoonSetCRD).toEqual(renderCocoonSetCRD());
    expect(cocoonHibernationCRD).toEqual(renderCocoonHibernationCRD());
  });

  it.each(["src/apis/v1/crd.ts", "src/apis/v1/crd-data.generated.ts"])("%s imports nothing that renders (zod, the schemas)", (file) => {
    const imports = [...readFileSync(path.join(CRDS_DIR, "..", file), "utf8").matchAll(/^import .* from "([^"]+)";$/gmu)].map((m) => m[1]);
    expect(imports.filter((from) => from !== "./crd-data.generated.js" && from !== "./crd-types.js")).toEqual([]);
  });
});
