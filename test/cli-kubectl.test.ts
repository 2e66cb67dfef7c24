/**
 * The CLI as people use kubectl, kubeconform and kubectl-validate (issue 14), through the built
 * executable: `-o=json`, directories, a missing file among others, `--validate`, `-v`, messages
 * in the user's words, and `annotations` on an object that is not a Pod.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { built, runCli, scratch, suiteTitle } from "./cli-harness.js";

const set = (name: string, agent: string) =>
  `apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  agent:\n    image: img\n${agent}`;

const FILES: Record<string, string> = {
  "demo.yaml": set("demo", ""),
  "typo.yaml": set("typo", "    imag: x\n"),
  "words.yaml": set("words", "    replicas: two\n    storage: 20 GiB\n"),
  "manifests/a.yaml": set("a", ""),
  "manifests/notes.txt": "not a manifest\n",
  "manifests/sub/b.yml": set("b", "    replicas: -1\n"),
  "manifests/sub/c.json": JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } }),
  "config.yaml": 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  annotations:\n    vm.cocoonstack.io/hibernate: "true"\n',
  "set-hint.yaml":
    "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: s\n  annotations:\n    cocoonset.cocoonstack.io/hibernated-on-node: node-a\n",
};

describe.skipIf(!built)(`${suiteTitle}: as kubectl users expect`, () => {
  let dir = "";
  let remove: () => void = () => undefined;
  beforeAll(() => ({ dir, remove } = scratch(FILES)));
  afterAll(() => remove());
  const cli = (...args: string[]) => runCli(dir, args);

  it.each([["-o=json"], ["-ojson"], ["-o", "json"], ["--output=json"]])("%s prints JSON, as kubectl's flags parse it", (...flag) => {
    const { status, stdout, stderr } = cli("validate", ...flag, "demo.yaml");
    expect({ status, stderr, valid: (JSON.parse(stdout) as { valid: boolean }[]).map((r) => r.valid) }).toEqual({
      status: 0,
      stderr: "",
      valid: [true],
    });
  });

  it("reads a directory recursively, as kubeconform: .yaml, .yml and .json files, in name order", () => {
    expect(cli("validate", "manifests")).toEqual({
      status: 1,
      stdout:
        "manifests/a.yaml:1: document 1 (CocoonSet default/a): valid\n" +
        "manifests/sub/b.yml:9: document 1 (CocoonSet default/b): spec.agent.replicas: must be at least 0, got the number -1\n" +
        "manifests/sub/c.json:1: document 1 (ConfigMap c): skipped (not a CocoonSet or CocoonHibernation)\n" +
        "1 valid, 1 invalid, 1 skipped\n",
      stderr: "",
    });
  });

  it("reports the other files when one is missing, then exits 2", () => {
    expect(cli("validate", "demo.yaml", "gone.yaml", "typo.yaml")).toEqual({
      status: 2,
      stdout:
        "demo.yaml:1: document 1 (CocoonSet default/demo): valid\n" +
        "typo.yaml:9: document 1 (CocoonSet default/typo): spec.agent.imag: unknown field\n" +
        "1 valid, 1 invalid, 0 skipped\n",
      stderr: "cocoon-common validate: cannot read gone.yaml: no such file or directory\n",
    });
    const shown = cli("annotations", "gone.yaml", "set-hint.yaml");
    expect({ status: shown.status, stderr: shown.stderr, hint: shown.stdout.includes("hibernatedOnNode: node-a") }).toEqual({
      status: 2,
      stderr: "cocoon-common annotations: cannot read gone.yaml: no such file or directory\n",
      hint: true,
    });
  });

  describe("--validate, as kubectl", () => {
    it.each([[["--validate=strict"]], [["--validate=true"]], [["--validate"]], [[]]])(
      "%s (strict, the default) rejects an unknown field: exit 1",
      (flags) => {
        expect(cli("validate", ...flags, "typo.yaml")).toEqual({
          status: 1,
          stdout: "typo.yaml:9: document 1 (CocoonSet default/typo): spec.agent.imag: unknown field\n0 valid, 1 invalid, 0 skipped\n",
          stderr: "",
        });
      },
    );

    it("warn reports it as a warning: exit 0", () => {
      expect(cli("validate", "--validate=warn", "typo.yaml")).toEqual({
        status: 0,
        stdout:
          "typo.yaml:1: document 1 (CocoonSet default/typo): valid\n" +
          "typo.yaml:9: document 1 (CocoonSet default/typo): spec.agent.imag: warning: unknown field\n" +
          "1 valid, 0 invalid, 0 skipped\n",
        stderr: "",
      });
    });

    it.each([["--validate=ignore"], ["--validate=false"]])("%s drops it silently: exit 0", (flag) => {
      expect(cli("validate", flag, "typo.yaml")).toEqual({
        status: 0,
        stdout: "typo.yaml:1: document 1 (CocoonSet default/typo): valid\n1 valid, 0 invalid, 0 skipped\n",
        stderr: "",
      });
    });

    it("refuses another mode: exit 2", () => {
      const { status, stderr } = cli("validate", "--validate=lenient", "typo.yaml");
      expect({ status, firstLine: stderr.split("\n")[0] }).toEqual({
        status: 2,
        firstLine: "cocoon-common validate: --validate must be 'strict', 'warn' or 'ignore' (or 'true', 'false'), got 'lenient'",
      });
    });
  });

  it("leaves -v to verbosity: --version prints the version, -v is an unknown option", () => {
    const version = cli("--version");
    expect({ status: version.status, stderr: version.stderr }).toEqual({ status: 0, stderr: "" });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const verbose = cli("-v");
    expect({ status: verbose.status, stdout: verbose.stdout, firstLine: verbose.stderr.split("\n")[0] }).toEqual({
      status: 2,
      stdout: "",
      firstLine: "cocoon-common: unknown option '-v'",
    });
  });

  it("says what a field takes in the user's words: a quantity, an integer", () => {
    expect(cli("validate", "words.yaml")).toEqual({
      status: 1,
      stdout:
        'words.yaml:9: document 1 (CocoonSet default/words): spec.agent.replicas: must be an integer, got the string "two"\n' +
        'words.yaml:10: document 1 (CocoonSet default/words): spec.agent.storage: must be a quantity such as 512Mi or 1.5Gi, got the string "20 GiB"\n' +
        "0 valid, 1 invalid, 0 skipped\n",
      stderr: "",
    });
  });

  it("annotations on an object that is not a Pod says so, and shows a CocoonSet's wake hint", () => {
    expect(cli("annotations", "config.yaml", "set-hint.yaml")).toEqual({
      status: 0,
      stdout:
        "# config.yaml:1: document 1 (ConfigMap cfg): skipped (not a Pod: the cocoon annotations are read on pods, the wake hint on a CocoonSet)\n" +
        "---\n# set-hint.yaml:1: document 1 (CocoonSet s)\nhibernatedOnNode: node-a\n",
      stderr: "",
    });
  });
});
