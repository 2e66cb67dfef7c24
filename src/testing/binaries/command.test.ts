import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { findOnPath, formatElapsed, runCommand } from "./command.js";

describe("runCommand", () => {
  it("returns stdout and passes stderr lines on", async () => {
    const seen: string[] = [];
    const result = await runCommand("sh", ["-c", "echo out; echo one >&2; echo two >&2"], { onStderrLine: (l) => seen.push(l) });
    expect(result.stdout).toBe("out\n");
    expect(seen).toEqual(["one", "two"]);
  });

  it("names a missing executable", async () => {
    const err = await runCommand("cocoon-no-such-tool", []).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe('"cocoon-no-such-tool" is not on PATH');
  });

  it("reports the exit status with the stderr tail", async () => {
    const err = await runCommand("sh", ["-c", "echo boom >&2; exit 3"]).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_CONTROL_PLANE")).toBe(true);
    expect((err as Error).message).toBe('"sh -c echo boom >&2; exit 3" failed with exit status 3:\nboom');
  });

  it("fails with the code it is given", async () => {
    const err = await runCommand("sh", ["-c", "exit 1"], { code: "ERR_TEST_REGISTRY" }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_TEST_REGISTRY")).toBe(true);
  });
});

describe("findOnPath", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cocoon-find-on-path-"));
    await mkdir(join(dir, "a", "go"), { recursive: true }); // a folder named go is not a go
    await mkdir(join(dir, "b"));
    await writeFile(join(dir, "b", "go"), "#!/bin/sh\n"); // not executable
    await mkdir(join(dir, "c"));
    await writeFile(join(dir, "c", "go"), "#!/bin/sh\n");
    await chmod(join(dir, "c", "go"), 0o755);
    await mkdir(join(dir, "d"));
    await writeFile(join(dir, "d", "go"), "#!/bin/sh\n");
    await chmod(join(dir, "d", "go"), 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("returns the first executable file of that name, skipping folders and plain files", async () => {
    const PATH = ["a", "b", "", "c", "d"].map((d) => (d ? join(dir, d) : d)).join(delimiter);
    expect(await findOnPath("go", { PATH })).toBe(join(dir, "c", "go"));
  });

  it.each([
    ["no PATH", {}],
    ["an empty PATH", { PATH: "" }],
  ])("returns undefined for %s", async (_name, env) => {
    expect(await findOnPath("go", env)).toBeUndefined();
  });

  it("returns undefined when the folders hold only a folder and a plain file of that name", async () => {
    expect(await findOnPath("go", { PATH: [join(dir, "a"), join(dir, "b")].join(delimiter) })).toBeUndefined();
  });
});

describe("formatElapsed", () => {
  it.each([
    [0, "0.0s"],
    [12_345, "12.3s"],
    [59_949, "59.9s"],
    [60_000, "1m00s"],
    [125_400, "2m05s"],
    [3_725_000, "62m05s"],
  ])("%i ms is %s", (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });
});
