import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { runCommand } from "./run-command.js";

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
});
