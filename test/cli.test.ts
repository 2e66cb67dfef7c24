/**
 * Runs the BUILT `cocoon-common` executable as a process (`node dist/cli/main.js`, or the file in
 * `$COCOON_CLI`) and checks its exact stdout, stderr and exit status. Build it first (`npx tsup`,
 * part of `npm test`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "../src/apis/v1/crd.js";
import { cocoonKubeletClusterRole, cocoonOperatorClusterRole } from "../src/apis/v1/rbac.js";
import { COMMAND_HELP, GLOBAL_HELP } from "../src/cli/run.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const cliPath = path.resolve(root, process.env.COCOON_CLI ?? "dist/cli/main.js");
const built = existsSync(cliPath);
const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

let dir = "";
/** Runs the built CLI in the fixture directory. */
function cli(args: string[], stdin = "") {
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: dir, input: stdin, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const FIXTURES: Record<string, string> = {
  "demo.yaml": `apiVersion: cocoonset.cocoonstack.io/v1
kind: CocoonSet
metadata:
  name: demo
  namespace: default
spec:
  snapshotCompatibilityClass: gen-a
  agent:
    image: ghcr.io/acme/agent:1
`,
  "invalid.yaml": `# a release set must be main-only
apiVersion: cocoonset.cocoonstack.io/v1
kind: CocoonSet
metadata:
  name: bad
  namespace: default
spec:
  hibernatePolicy: release
  agent:
    image: ghcr.io/acme/agent:1
    replicas: 2
`,
  "stream.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  mode: fast
---
apiVersion: cocoonset.cocoonstack.io/v1
kind: CocoonHibernation
metadata:
  name: nap
  namespace: default
spec:
  podRef:
    name: demo-0
  desire: Hibernate
---
apiVersion: cocoonset.cocoonstack.io/v1
kind: CocoonSet
metadata:
  name: typo
  namespace: default
spec:
  agent:
    imag: ghcr.io/acme/agent:1
`,
  "set.json": `{
  "apiVersion": "cocoonset.cocoonstack.io/v1",
  "kind": "CocoonSet",
  "metadata": { "name": "json", "namespace": "default" },
  "spec": {
    "agent": { "image": "ghcr.io/acme/agent:1", "replicas": -1 }
  }
}
`,
  "changed.yaml": `apiVersion: cocoonset.cocoonstack.io/v1
kind: CocoonSet
metadata:
  name: demo
  namespace: default
spec:
  snapshotCompatibilityClass: gen-b
  agent:
    image: ghcr.io/acme/agent:1
`,
  "broken.yaml": "apiVersion: v1\nkind: [ConfigMap\n",
  "pod.yaml": `apiVersion: v1
kind: Pod
metadata:
  name: demo-0
  namespace: default
  annotations:
    vm.cocoonstack.io/name: vk-default-demo-0
    cocoonset.cocoonstack.io/image: ghcr.io/acme/agent:1
    vm.cocoonstack.io/id: vm-7
    vm.cocoonstack.io/ip: 10.0.0.7
    vm.cocoonstack.io/vnc-port: "5900"
    vm.cocoonstack.io/lifecycle-state: hibernated
    vm.cocoonstack.io/lifecycle-observed-generation: "3"
    vm.cocoonstack.io/hibernate: "True"
    vm.cocoonstack.io/keep-snapshot-on-delete: "true"
    cocoonset.cocoonstack.io/generation: "3"
`,
};

describe.skipIf(!built)(
  `the built CLI (${built ? path.relative(root, cliPath) : `skipped: ${cliPath} is missing, run \`npx tsup\``})`,
  () => {
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), "cocoon-cli-"));
      for (const [name, text] of Object.entries(FIXTURES)) writeFileSync(path.join(dir, name), text);
    });
    afterAll(() => {
      if (dir !== "") rmSync(dir, { recursive: true, force: true });
    });

    it("is an executable node script", () => {
      expect(readFileSync(cliPath, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
      if (process.platform !== "win32") expect(statSync(cliPath).mode & 0o111).not.toBe(0);
    });

    describe("--help and --version", () => {
      it.each([
        { args: ["--help"], stdout: GLOBAL_HELP },
        { args: ["validate", "--help"], stdout: COMMAND_HELP.validate },
        { args: ["annotations", "-h"], stdout: COMMAND_HELP.annotations },
        { args: ["help", "crds"], stdout: COMMAND_HELP.crds },
        { args: ["--version"], stdout: `${version}\n` },
      ])("$args prints to stdout, exit 0", ({ args, stdout }) => {
        expect(cli(args)).toEqual({ status: 0, stdout, stderr: "" });
      });

      it("an unknown command prints the usage on stderr, exit 2", () => {
        expect(cli(["install"])).toEqual({
          status: 2,
          stdout: "",
          stderr:
            "cocoon-common: unknown command 'install'\nUsage: cocoon-common <command> [options]\n" +
            "Commands: crds, rbac, validate, annotations, help\nRun 'cocoon-common --help' for more.\n",
        });
      });

      it("an unknown flag prints the command's usage on stderr, exit 2", () => {
        expect(cli(["validate", "--strict", "demo.yaml"])).toEqual({
          status: 2,
          stdout: "",
          stderr:
            "cocoon-common validate: unknown option '--strict'\nUsage: cocoon-common validate [options] FILE... | -\n" +
            "Run 'cocoon-common validate --help' for more.\n",
        });
      });
    });

    describe("crds", () => {
      it("prints the committed manifests byte for byte", () => {
        const committed = ["cocoonset.cocoonstack.io_cocoonsets.yaml", "cocoonset.cocoonstack.io_cocoonhibernations.yaml"]
          .map((name) => readFileSync(path.join(root, "crds", name), "utf8"))
          .join("");
        expect(cli(["crds"])).toEqual({ status: 0, stdout: committed, stderr: "" });
      });

      it("is a YAML stream of exactly the two CRDs", () => {
        const docs = parseAllDocuments(cli(["crds"]).stdout).map((doc) => doc.toJS() as unknown);
        expect(docs).toEqual([JSON.parse(JSON.stringify(cocoonSetCRD)), JSON.parse(JSON.stringify(cocoonHibernationCRD))]);
      });
    });

    describe("rbac", () => {
      it("prints the committed ClusterRoles byte for byte, the operator's first", () => {
        const committed = ["cocoon-operator.clusterrole.yaml", "cocoon-kubelet.clusterrole.yaml"]
          .map((name) => readFileSync(path.join(root, "rbac", name), "utf8"))
          .join("");
        expect(cli(["rbac"])).toEqual({ status: 0, stdout: committed, stderr: "" });
      });

      it("is a YAML stream of exactly the two ClusterRoles", () => {
        const docs = parseAllDocuments(cli(["rbac"]).stdout).map((doc) => doc.toJS() as unknown);
        expect(docs).toEqual([cocoonOperatorClusterRole, cocoonKubeletClusterRole]);
      });

      it("takes no operand: exit 2", () => {
        expect(cli(["rbac", "agent"])).toEqual({
          status: 2,
          stdout: "",
          stderr:
            "cocoon-common rbac: rbac takes no arguments, got 'agent'\nUsage: cocoon-common rbac\n" +
            "Run 'cocoon-common rbac --help' for more.\n",
        });
      });
    });

    describe("validate", () => {
      it("a valid file: exit 0", () => {
        expect(cli(["validate", "demo.yaml"])).toEqual({
          status: 0,
          stdout: "demo.yaml:1: document 1 (CocoonSet default/demo): valid\n1 valid, 0 invalid, 0 skipped\n",
          stderr: "",
        });
      });

      it("the CEL rule, with the line of the field it sits on: exit 1", () => {
        expect(cli(["validate", "invalid.yaml"])).toEqual({
          status: 1,
          stdout:
            "invalid.yaml:7: document 1 (CocoonSet default/bad): spec: hibernatePolicy=release requires agent.replicas=0 and no toolboxes\n" +
            "0 valid, 1 invalid, 0 skipped\n",
          stderr: "",
        });
      });

      it("a multi-document stream: the ConfigMap is skipped, an unknown field and a missing one are errors", () => {
        expect(cli(["validate", "stream.yaml"])).toEqual({
          status: 1,
          stdout:
            "stream.yaml:1: document 1 (ConfigMap default/settings): skipped (not a CocoonSet or CocoonHibernation)\n" +
            "stream.yaml:9: document 2 (CocoonHibernation default/nap): valid\n" +
            "stream.yaml:25: document 3 (CocoonSet default/typo): spec.agent.image: Required value\n" +
            "stream.yaml:26: document 3 (CocoonSet default/typo): spec.agent.imag: unknown field\n" +
            "1 valid, 1 invalid, 1 skipped\n",
          stderr: "",
        });
      });

      it("JSON input, with line numbers", () => {
        expect(cli(["validate", "set.json"])).toEqual({
          status: 1,
          stdout:
            "set.json:6: document 1 (CocoonSet default/json): spec.agent.replicas: must be at least 0, got the number -1\n0 valid, 1 invalid, 0 skipped\n",
          stderr: "",
        });
      });

      it("stdin, named <stdin>", () => {
        expect(cli(["validate", "-"], FIXTURES["invalid.yaml"])).toEqual({
          status: 1,
          stdout:
            "<stdin>:7: document 1 (CocoonSet default/bad): spec: hibernatePolicy=release requires agent.replicas=0 and no toolboxes\n" +
            "0 valid, 1 invalid, 0 skipped\n",
          stderr: "",
        });
      });

      it("--old: changing snapshotCompatibilityClass breaks the transition rule", () => {
        expect(cli(["validate", "--old", "demo.yaml", "changed.yaml"])).toEqual({
          status: 1,
          stdout:
            "changed.yaml:6: document 1 (CocoonSet default/demo): spec: snapshotCompatibilityClass is immutable once set\n0 valid, 1 invalid, 0 skipped\n",
          stderr: "",
        });
        expect(cli(["validate", "--old", "demo.yaml", "demo.yaml"])).toEqual({
          status: 0,
          stdout:
            "demo.yaml:1: document 1 (CocoonSet default/demo): valid (update of demo.yaml document 1)\n1 valid, 0 invalid, 0 skipped\n",
          stderr: "",
        });
      });

      it("--output json: one result per object", () => {
        const { status, stdout, stderr } = cli(["validate", "--output", "json", "stream.yaml", "invalid.yaml"]);
        expect({ status, stderr }).toEqual({ status: 1, stderr: "" });
        expect(JSON.parse(stdout)).toEqual([
          {
            file: "stream.yaml",
            document: 1,
            line: 1,
            kind: "ConfigMap",
            namespace: "default",
            name: "settings",
            valid: true,
            skipped: true,
            reason: "not a CocoonSet or CocoonHibernation",
            errors: [],
          },
          {
            file: "stream.yaml",
            document: 2,
            line: 9,
            kind: "CocoonHibernation",
            namespace: "default",
            name: "nap",
            valid: true,
            skipped: false,
            errors: [],
          },
          {
            file: "stream.yaml",
            document: 3,
            line: 19,
            kind: "CocoonSet",
            namespace: "default",
            name: "typo",
            valid: false,
            skipped: false,
            errors: [
              { path: "spec.agent.image", line: 25, message: "Required value" },
              { path: "spec.agent.imag", line: 26, message: "unknown field" },
            ],
          },
          {
            file: "invalid.yaml",
            document: 1,
            line: 2,
            kind: "CocoonSet",
            namespace: "default",
            name: "bad",
            valid: false,
            skipped: false,
            errors: [{ path: "spec", line: 7, message: "hibernatePolicy=release requires agent.replicas=0 and no toolboxes" }],
          },
        ]);
      });

      it("a missing file: the others are reported, exit 2", () => {
        expect(cli(["validate", "demo.yaml", "nowhere.yaml"])).toEqual({
          status: 2,
          stdout: "demo.yaml:1: document 1 (CocoonSet default/demo): valid\n1 valid, 0 invalid, 0 skipped\n",
          stderr: "cocoon-common validate: cannot read nowhere.yaml: no such file or directory\n",
        });
      });

      it("a YAML syntax error: exit 2, with the line and column", () => {
        expect(cli(["validate", "broken.yaml"])).toEqual({
          status: 2,
          stdout: "",
          stderr:
            "cocoon-common validate: broken.yaml:3:1: cannot parse YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n",
        });
      });
    });

    describe("annotations", () => {
      it("prints the typed view as YAML, with a note for what the readers ignore", () => {
        expect(cli(["annotations", "pod.yaml"])).toEqual({
          status: 0,
          stdout: `# pod.yaml:1: document 1 (Pod default/demo-0)
vmSpec:
  vmName: vk-default-demo-0
  image: ghcr.io/acme/agent:1
  mode: ""
  os: ""
  storage: ""
  network: ""
  snapshotPolicy: ""
  forkFrom: ""
  managed: false
  forcePull: false
  noDirectIO: false
  connType: ""
  backend: ""
  probePort: ""
vmRuntime:
  vmID: vm-7
  ip: 10.0.0.7
  vncPort: 5900
lifecycleStatus:
  state: hibernated
  observedGeneration: 3
  message: ""
hibernateState: false
restoreFromHibernate: false
keepSnapshotOnDelete: true
cocoonSetGeneration: 3
# note: vm.cocoonstack.io/hibernate="True" reads as false: only "true" counts
`,
          stderr: "",
        });
      });

      it("--output json from stdin", () => {
        const { status, stdout, stderr } = cli(["annotations", "-o", "json", "-"], FIXTURES["pod.yaml"]);
        expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
        expect(JSON.parse(stdout)).toEqual([
          {
            file: "<stdin>",
            document: 1,
            line: 1,
            kind: "Pod",
            namespace: "default",
            name: "demo-0",
            annotations: {
              vmSpec: {
                vmName: "vk-default-demo-0",
                image: "ghcr.io/acme/agent:1",
                mode: "",
                os: "",
                storage: "",
                network: "",
                snapshotPolicy: "",
                forkFrom: "",
                managed: false,
                forcePull: false,
                noDirectIO: false,
                connType: "",
                backend: "",
                probePort: "",
              },
              vmRuntime: { vmID: "vm-7", ip: "10.0.0.7", vncPort: 5900 },
              lifecycleStatus: { state: "hibernated", observedGeneration: 3, message: "" },
              hibernateState: false,
              restoreFromHibernate: false,
              keepSnapshotOnDelete: true,
              cocoonSetGeneration: 3,
            },
            notes: ['vm.cocoonstack.io/hibernate="True" reads as false: only "true" counts'],
            errors: [],
          },
        ]);
      });
    });
  },
);
