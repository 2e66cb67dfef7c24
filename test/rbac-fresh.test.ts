/**
 * Fails when the committed `rbac/*.clusterrole.yaml` differ from what `npm run generate` would write
 * now from `src/apis/v1/rbac.ts`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RBAC_DIR, RBAC_GENERATED_HEADER, renderRBACFiles } from "../scripts/generate-crds.js";
import { cocoonAgentClusterRole, cocoonOperatorClusterRole } from "../src/apis/v1/index.js";

const rendered = renderRBACFiles();

describe("rbac/ is up to date (run `npm run generate` to fix)", () => {
  it("holds exactly the generated ClusterRoles", () => {
    const committed = readdirSync(RBAC_DIR).sort();
    expect(committed).toEqual(["cocoon-agent.clusterrole.yaml", "cocoon-operator.clusterrole.yaml"]);
    expect(committed).toEqual(Object.keys(rendered).sort());
  });

  it.each(Object.entries(rendered))("%s matches a fresh render byte for byte", (name, text) => {
    expect(readFileSync(path.join(RBAC_DIR, name), "utf8")).toBe(text);
  });

  it.each(Object.entries(rendered))("%s starts with the generated-file comment", (_name, text) => {
    expect(text.startsWith(`${RBAC_GENERATED_HEADER}\n---\n`)).toBe(true);
  });

  it("parses back to the exported objects", () => {
    expect(Object.values(rendered).map((text) => parse(text) as unknown)).toEqual([cocoonOperatorClusterRole, cocoonAgentClusterRole]);
  });
});
