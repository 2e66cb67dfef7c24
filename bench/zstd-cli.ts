import { execFileSync } from "node:child_process";

/** Whether the `zstd` CLI (the benchmarks' compression floor) is on the PATH. */
export function zstdCliAvailable(): boolean {
  try {
    execFileSync("zstd", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
