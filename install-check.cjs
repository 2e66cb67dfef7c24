// Runs as this package's `preinstall`: refuses to install on a Node that package.json `engines` does
// not admit, so an unproven runtime fails at `npm install` with one clear message instead of at
// run time (npm only warns about `engines` unless the user set engine-strict).
"use strict";

const { engines, name } = require("./package.json");

/**
 * Returns why `nodeVersion` (e.g. "20.20.2") is refused, or undefined when `engines.node` admits it.
 * `engines.node` is a list of caret ranges ("^22.19.0 || ^24.0.0").
 * @param {string} nodeVersion
 * @returns {string | undefined}
 */
function refusal(nodeVersion) {
  const [major, minor, patch] = nodeVersion.replace(/^v/, "").split(".").map(Number);
  const admitted = engines.node.split("||").some((range) => {
    const [m, n, p] = range.trim().replace(/^\^/, "").split(".").map(Number);
    return major === m && (minor > n || (minor === n && patch >= p));
  });
  if (admitted) return undefined;
  const why =
    major < 22 || (major === 22 && minor < 19)
      ? "Node 20 reached its end of life on 2026-04-30, and @kubernetes/client-node 2 (undici 8) needs Node 22.19 or newer."
      : `Node ${major} is not yet proven by this package's CI matrix.`;
  return `${name} needs Node ${engines.node}; this is Node ${nodeVersion}. ${why} Install Node 22 (22.19 or newer) or Node 24.`;
}

module.exports = { refusal };

// Only a consumer's install is checked: `npm ci` in a clone of this repository is development.
if (require.main === module && __dirname.split(require("node:path").sep).includes("node_modules")) {
  const message = refusal(process.versions.node);
  if (message !== undefined) {
    process.stderr.write(`\n${message}\n\n`);
    process.exit(1);
  }
}
