import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "./find-on-path.js";

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
