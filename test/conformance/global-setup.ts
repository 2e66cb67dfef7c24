import { GO_MISSING, ensureOracle, goVersion } from "./support/toolchain.js";

/**
 * Vitest global setup: builds the Go conformance oracle (or finds it cached) once, before the
 * test workers start, so that parallel conformance files never build it twice. Without a Go
 * toolchain it does nothing and each conformance suite reports itself skipped.
 */
export default async function setup(): Promise<void> {
  const version = goVersion();
  if (version === undefined) console.warn(`[conformance] ${GO_MISSING}`);
  else await ensureOracle(version);
}
