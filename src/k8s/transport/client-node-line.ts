import { createRequire } from "node:module";

/** The installed `@kubernetes/client-node` version, read once from its package.json (it has no exports map to forbid it). */
const version = (createRequire(import.meta.url)("@kubernetes/client-node/package.json") as { version: string }).version;

/**
 * The installed `@kubernetes/client-node` version, e.g. `"1.4.0"` or `"2.0.1"`.
 *
 * @internal
 */
export const clientNodeVersion: string = version;

/**
 * The installed `@kubernetes/client-node` major version: 1 sends through node-fetch with a
 * per-request `https.Agent`, 2 through undici's fetch with a per-request dispatcher.
 *
 * @internal
 */
export const clientNodeMajor = Number(version.split(".")[0]);
