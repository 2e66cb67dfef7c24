/**
 * Hostile input through the built executable (issue 9): endless stdin, YAML alias bombs and
 * cycles, a 5 MB name, fields named like `Object.prototype` members (the growth bounds, `--old`
 * included, are in cli-fuzz.test.ts).
 * None may end in exit 70 with a stack trace, and none may pass as valid.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { built, runCli, runCliWithEndlessStdin, scratch, suiteTitle } from "./cli-harness.js";

const SET = "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: demo\n  namespace: default\n";
const laughs = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
for (const [i, name] of ["b", "c", "d", "e", "f", "g", "h", "i"].entries()) {
  const prev = String.fromCharCode(97 + i);
  laughs.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
}
const doubling = ["x0: &x0 [lol]", ...Array.from({ length: 40 }, (_, i) => `x${i + 1}: &x${i + 1} [*x${i}, *x${i}]`)];

const FILES: Record<string, string> = {
  "laughs.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  ${laughs.join("\n  ")}\n`,
  "doubling.yaml": `${SET}spec:\n  agent:\n    image: img\n  x:\n    ${doubling.join("\n    ")}\n`,
  "claims.yaml": `${SET}spec:\n  agent:\n    image: img\n    resources:\n      claims: [{name: &n {a: *n}}]\n`,
  "managed.yaml": `${SET}  managedFields: [&m {manager: x, fieldsV1: {f: [*m]}}]\nspec:\n  agent:\n    image: img\n`,
  "proto.yaml": `${SET}spec:\n  agent:\n    image: img\n    constructor: x\n    hasOwnProperty: y\n`,
  "to-string.yaml": "apiVersion: v1\nkind: toString\nmetadata:\n  name: x\n",
  "valid.yaml": `${SET}spec:\n  agent:\n    image: img\n`,
};

describe.skipIf(!built)(`${suiteTitle}: hostile input`, () => {
  let dir = "";
  let remove: () => void = () => undefined;
  beforeAll(() => ({ dir, remove } = scratch(FILES)));
  afterAll(() => remove());

  it("stops reading an endless stdin (yes | cocoon-common validate -) at the input limit: exit 2", async () => {
    const result = await runCliWithEndlessStdin(dir, ["validate", "-"], "y\n", 96 * 1024 * 1024);
    expect(result).toMatchObject({
      status: 2,
      stdout: "",
      stderr: "cocoon-common validate: cannot read <stdin>: input too large (more than 32 MiB)\n",
    });
    expect(result.written).toBeLessThan(48 * 1024 * 1024);
  });

  it("caps a file as it caps stdin, and still reports the other files", () => {
    const { dir: big, remove: removeBig } = scratch({ "big.yaml": "# padding\n".repeat(3.4e6), "valid.yaml": FILES["valid.yaml"] ?? "" });
    try {
      expect(runCli(big, ["validate", "big.yaml", "valid.yaml"])).toEqual({
        status: 2,
        stdout: "valid.yaml:1: document 1 (CocoonSet default/demo): valid\n1 valid, 0 invalid, 0 skipped\n",
        stderr: "cocoon-common validate: cannot read big.yaml: input too large (more than 32 MiB)\n",
      });
    } finally {
      removeBig();
    }
  });

  it.each([
    {
      name: "a billion laughs",
      args: ["validate", "laughs.yaml"],
      stderr: "laughs.yaml:9:30: cannot parse YAML: document contains excessive aliasing",
    },
    {
      name: "40 doubling aliases",
      args: ["validate", "doubling.yaml"],
      stderr: "doubling.yaml:21:16: cannot parse YAML: document contains excessive aliasing",
    },
    {
      name: "a self-referencing alias in a list item",
      args: ["validate", "claims.yaml"],
      stderr: "claims.yaml:10:30: cannot parse YAML: anchor 'n' value contains itself",
    },
    {
      name: "a recursive alias in managedFields, with --defaults",
      args: ["validate", "--defaults", "managed.yaml"],
      stderr: "managed.yaml:6:50: cannot parse YAML: anchor 'm' value contains itself",
    },
    {
      name: "a billion laughs in annotations",
      args: ["annotations", "laughs.yaml"],
      stderr: "laughs.yaml:9:30: cannot parse YAML: document contains excessive aliasing",
    },
  ])("refuses $name as kubectl does: exit 2, never a stack trace", ({ args, stderr }) => {
    expect(runCli(dir, args)).toEqual({ status: 2, stdout: "", stderr: `cocoon-common ${args[0] ?? ""}: ${stderr}\n` });
  });

  it("refuses a 5 MB dotted metadata.name as the API server does (request too large): exit 1", () => {
    const name = `${"a.".repeat(2.5e6)}a`;
    const { status, stdout, stderr } = runCli(
      dir,
      ["validate", "-"],
      `${SET.replace("name: demo", `name: ${name}`)}spec:\n  agent:\n    image: img\n`,
    );
    expect({ status, stderr }).toEqual({ status: 1, stderr: "" });
    expect(stdout).toMatch(
      /^<stdin>:1: document 1 \(CocoonSet default\/a\.a\.[a.]+\): too large: 5000\d{3} bytes as JSON, the API server accepts at most 3145728 per request\n0 valid, 1 invalid, 0 skipped\n$/,
    );
  });

  it("reports fields named like Object.prototype members as unknown, as strict validation does: exit 1", () => {
    expect(runCli(dir, ["validate", "proto.yaml"])).toEqual({
      status: 1,
      stdout:
        "proto.yaml:9: document 1 (CocoonSet default/demo): spec.agent.constructor: unknown field\n" +
        "proto.yaml:10: document 1 (CocoonSet default/demo): spec.agent.hasOwnProperty: unknown field\n" +
        "0 valid, 1 invalid, 0 skipped\n",
      stderr: "",
    });
  });

  it("skips a kind named like an Object.prototype member instead of crashing: exit 0", () => {
    expect(runCli(dir, ["validate", "to-string.yaml"])).toEqual({
      status: 0,
      stdout: "to-string.yaml:1: document 1 (toString x): skipped (not a CocoonSet or CocoonHibernation)\n0 valid, 0 invalid, 1 skipped\n",
      stderr: "",
    });
  });
});
