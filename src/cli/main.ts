#!/usr/bin/env node
/**
 * The `cocoon-common` executable (package.json `bin`): wires {@link run} to the real process.
 *
 * @module
 */
import { processIO } from "./io.js";
import { run } from "./run.js";

// `cocoon-common crds | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

try {
  process.exitCode = await run(process.argv.slice(2), processIO);
} catch (err) {
  process.stderr.write(`cocoon-common: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 70;
}
