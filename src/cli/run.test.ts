import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMAND_HELP, GLOBAL_HELP } from "./run.js";
import { findPackageRoot } from "./package-files.js";
import { runInMemory } from "./test-io.js";

const cli = runInMemory;

const SET = "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: demo\nspec:\n  agent:\n    image: img\n";
const VERSION = (JSON.parse(readFileSync(`${findPackageRoot()}/package.json`, "utf8")) as { version: string }).version;

describe("run: global options and help", () => {
  it.each([
    { name: "--help", argv: ["--help"], stdout: GLOBAL_HELP },
    { name: "-h", argv: ["-h"], stdout: GLOBAL_HELP },
    { name: "help", argv: ["help"], stdout: GLOBAL_HELP },
    { name: "help validate", argv: ["help", "validate"], stdout: COMMAND_HELP.validate },
    { name: "--help annotations", argv: ["--help", "annotations"], stdout: COMMAND_HELP.annotations },
    { name: "crds --help", argv: ["crds", "--help"], stdout: COMMAND_HELP.crds },
    { name: "rbac --help", argv: ["rbac", "--help"], stdout: COMMAND_HELP.rbac },
    { name: "validate -h", argv: ["validate", "-h"], stdout: COMMAND_HELP.validate },
    { name: "--version", argv: ["--version"], stdout: `${VERSION}\n` },
  ])("$name prints to stdout and exits 0", async ({ argv, stdout }) => {
    expect(await cli(argv)).toEqual({ status: 0, stdout, stderr: "" });
  });

  it("prints the global help on stderr and exits 2 without arguments", async () => {
    expect(await cli([])).toEqual({ status: 2, stdout: "", stderr: GLOBAL_HELP });
  });

  const GLOBAL_USAGE =
    "Usage: cocoon-common <command> [options]\nCommands: crds, rbac, validate, annotations, help\nRun 'cocoon-common --help' for more.\n";
  const VALIDATE_USAGE = "Usage: cocoon-common validate [options] FILE... | -\nRun 'cocoon-common validate --help' for more.\n";
  it.each([
    { name: "an unknown command", argv: ["frob"], stderr: `cocoon-common: unknown command 'frob'\n${GLOBAL_USAGE}` },
    { name: "help for an unknown command", argv: ["help", "frob"], stderr: `cocoon-common: unknown command 'frob'\n${GLOBAL_USAGE}` },
    { name: "an unknown global option", argv: ["--frob"], stderr: `cocoon-common: unknown option '--frob'\n${GLOBAL_USAGE}` },
    { name: "-v, which kubectl users know as verbosity", argv: ["-v"], stderr: `cocoon-common: unknown option '-v'\n${GLOBAL_USAGE}` },
    {
      name: "a command after a global option",
      argv: ["--version", "crds"],
      stderr: `cocoon-common: put 'crds' first: options come after the command\n${GLOBAL_USAGE}`,
    },
    {
      name: "an unknown command option",
      argv: ["validate", "--frob", "a.yaml"],
      stderr: `cocoon-common validate: unknown option '--frob'\n${VALIDATE_USAGE}`,
    },
    {
      name: "validate without files",
      argv: ["validate"],
      stderr: `cocoon-common validate: validate needs at least one FILE or directory, or - for stdin\n${VALIDATE_USAGE}`,
    },
    {
      name: "stdin twice",
      argv: ["validate", "--old", "-", "-"],
      stderr: `cocoon-common validate: standard input (-) can be read only once\n${VALIDATE_USAGE}`,
    },
    {
      name: "an operand to crds",
      argv: ["crds", "x"],
      stderr:
        "cocoon-common crds: crds takes no arguments, got 'x'\nUsage: cocoon-common crds\nRun 'cocoon-common crds --help' for more.\n",
    },
    {
      name: "annotations without files",
      argv: ["annotations", "-o", "json"],
      stderr:
        "cocoon-common annotations: annotations needs at least one FILE or directory, or - for stdin\nUsage: cocoon-common annotations [options] FILE... | -\nRun 'cocoon-common annotations --help' for more.\n",
    },
  ])("rejects $name with the usage on stderr and exit 2", async ({ argv, stderr }) => {
    expect(await cli(argv)).toEqual({ status: 2, stdout: "", stderr });
  });
});

describe("run validate", () => {
  it("reports the readable files, names every unreadable one, and exits 2", async () => {
    expect(await cli(["validate", "a.yaml", "gone.yaml", "bad.yaml"], { "a.yaml": SET, "bad.yaml": "a: [\n" })).toEqual({
      status: 2,
      stdout: "a.yaml:1: document 1 (CocoonSet demo): valid\n1 valid, 0 invalid, 0 skipped\n",
      stderr:
        "cocoon-common validate: cannot read gone.yaml: no such file or directory\n" +
        "cocoon-common validate: bad.yaml:2:1: cannot parse YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n",
    });
  });

  it("stops at an unreadable --old file: nothing can be checked as an update", async () => {
    expect(await cli(["validate", "--old", "gone.yaml", "a.yaml"], { "a.yaml": SET })).toEqual({
      status: 2,
      stdout: "",
      stderr: "cocoon-common validate: --old: cannot read gone.yaml: no such file or directory\n",
    });
  });

  it("reads a directory's manifest files depth first, in name order, and names an unreadable one inside", async () => {
    const files = { "d/b.yaml": SET, "d/a/x.json": "{}", "d/a/big.yml": "#".repeat(33 * 1024 * 1024), "d/readme.md": "# no" };
    expect(await cli(["validate", "d/"], files)).toEqual({
      status: 2,
      stdout:
        "d/a/x.json:1: document 1: apiVersion: Required value\nd/a/x.json:1: document 1: kind: Required value\n" +
        "d/b.yaml:1: document 1 (CocoonSet demo): valid\n1 valid, 1 invalid, 0 skipped\n",
      stderr: "cocoon-common validate: cannot read d/a/big.yml: input too large (more than 32 MiB)\n",
    });
  });

  it("--defaults prints the stored objects on stdout and moves the report to stderr", async () => {
    const { status, stdout, stderr } = await cli(["validate", "--defaults", "-"], {}, `${SET}---\nkind: ConfigMap\napiVersion: v1\n`);
    expect(status).toBe(0);
    expect(stdout).toBe(
      "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: demo\nspec:\n  snapshotPolicy: always\n  hibernatePolicy: retain\n" +
        "  nodePool: default\n  agent:\n    replicas: 0\n    image: img\n    mode: clone\n    os: linux\n    backend: cloud-hypervisor\n",
    );
    expect(stderr).toBe(
      "<stdin>:1: document 1 (CocoonSet demo): valid\n<stdin>:9: document 2 (ConfigMap): skipped (not a CocoonSet or CocoonHibernation)\n1 valid, 0 invalid, 1 skipped\n",
    );
  });

  it("--defaults with --output json adds the stored object to each valid result", async () => {
    const { stdout } = await cli(["validate", "--defaults", "-o", "json", "a.yaml"], { "a.yaml": SET });
    expect((JSON.parse(stdout) as { object: { spec: { nodePool: string } } }[])[0]?.object.spec.nodePool).toBe("default");
  });

  it("checks the items of a List one by one", async () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n  - ${SET.trimEnd().replaceAll("\n", "\n    ")}\n  - apiVersion: v1\n    kind: Pod\n`;
    expect((await cli(["validate", "l.yaml"], { "l.yaml": list })).stdout).toBe(
      "l.yaml:4: document 1, items[0] (CocoonSet demo): valid\nl.yaml:11: document 1, items[1] (Pod): skipped (not a CocoonSet or CocoonHibernation)\n" +
        "1 valid, 0 invalid, 1 skipped\n",
    );
  });
});

describe("run annotations", () => {
  it("separates objects with --- and reports a bad annotation on stderr with exit 1", async () => {
    const good = "kind: Pod\nmetadata:\n  name: a\n  annotations:\n    vm.cocoonstack.io/id: vm-1\n";
    const bad = "kind: Pod\nmetadata:\n  name: b\n  annotations:\n    vm.cocoonstack.io/hibernate: yes\n";
    const { status, stdout, stderr } = await cli(["annotations", "p.yaml"], { "p.yaml": `${good}---\n${good}---\n${bad}` });
    expect(status).toBe(1);
    expect(stdout.split("---\n").map((doc) => doc.split("\n")[0])).toEqual([
      "# p.yaml:1: document 1 (Pod a)",
      "# p.yaml:7: document 2 (Pod a)",
    ]);
    expect(stdout).toContain("vmRuntime:\n  vmID: vm-1\n");
    expect(stderr).toBe(
      "p.yaml:17: document 3 (Pod b): metadata.annotations[vm.cocoonstack.io/hibernate]: must be a string, got the boolean true: quote the value\n",
    );
  });
});
