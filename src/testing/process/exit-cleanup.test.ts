import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { onParentExit } from "./exit-cleanup.js";

const MODULE = fileURLToPath(new URL("./exit-cleanup.ts", import.meta.url));

/** Runs `body` in a child node (with tsx) that registered a cleanup printing "cleaned". */
async function runChild(body: string): Promise<{ stdout: string; code: number | null; signal: NodeJS.Signals | null }> {
  const script = `import { onParentExit } from ${JSON.stringify(MODULE)};
onParentExit(() => process.stdout.write("cleaned\\n"));
process.stdout.write("ready\\n");
${body}`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    if (stdout === "ready\n" && body.includes("WAIT")) child.kill("SIGTERM");
  });
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  return { stdout, code, signal };
}

describe("onParentExit", () => {
  it("installs exit and signal handlers while cleanups are pending and removes them with the last one", () => {
    const count = () => [process.listenerCount("exit"), process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = count();
    const first = onParentExit(() => {});
    const second = onParentExit(() => {});
    expect(count()).toEqual(before.map((n) => n + 1));
    first();
    first();
    expect(count()).toEqual(before.map((n) => n + 1));
    second();
    expect(count()).toEqual(before);
  });

  it("runs the cleanup when the process exits normally", async () => {
    expect(await runChild("")).toEqual({ stdout: "ready\ncleaned\n", code: 0, signal: null });
  });

  it("runs the cleanup on SIGTERM, then dies of SIGTERM as it would have", async () => {
    expect(await runChild("setTimeout(() => {}, 20000); // WAIT")).toEqual({ stdout: "ready\ncleaned\n", code: null, signal: "SIGTERM" });
  });

  it("does not run a cleanup that was unregistered", async () => {
    const body = `const off = onParentExit(() => process.stdout.write("second\\n")); off();`;
    expect((await runChild(body)).stdout).toBe("ready\ncleaned\n");
  });
});
