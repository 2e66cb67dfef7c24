/**
 * `npm run registry:setup`: finds, downloads or builds the CNCF distribution registry for the integration tests.
 *
 * Prints `TEST_ASSET_REGISTRY=...` on stdout (so `export $(npm run -s registry:setup)` points later
 * runs straight at it) and progress on stderr. Exits 1 with the reason when neither an existing
 * binary, nor a download, nor `go` is available.
 *
 * @module
 */
import { isCocoonError } from "../../src/errors.js";
import { ensureRegistryBinary } from "../../src/testing/binaries/binaries.js";

const started = Date.now();
try {
  const { registry, source } = await ensureRegistryBinary();
  process.stdout.write(`TEST_ASSET_REGISTRY=${registry}\n`);
  process.stderr.write(`[registry] binary from ${source} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
} catch (err) {
  process.stderr.write(`[registry] ${isCocoonError(err) ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
