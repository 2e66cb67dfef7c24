/**
 * The Node lines this package is proven on, and the import-time check every entry point runs
 * first. A Node below the floor is refused with one line naming the versions (client-node 2's
 * undici and `node:zlib`'s zstd need 22.19); a line the CI matrix has not proven yet (an odd
 * major, or one newer than the newest proven) gets one process warning and runs, as npm's
 * `engines` check warns rather than refuses.
 *
 * @internal
 */

const PACKAGE = "@cocoonstack/cocoon-common";
/** package.json's `engines.node`: exactly the lines of the CI matrix (test/runtime-matrix.test.ts). */
export const SUPPORTED_NODE = "^22.19.0 || ^24.0.0 || ^26.0.0";
const PROVEN_MAJORS = [22, 24, 26];
const FLOOR = [22, 19, 0] as const;

/** What the check says of a Node version: nothing, a warning, or a refusal. */
export type NodeVerdict = { readonly refuse: string } | { readonly warn: string } | undefined;

/** Judges `version` (`"24.22.3"` or `"v24.22.3"`); never throws, on any value. */
export function nodeVerdict(version: unknown): NodeVerdict {
  const bare = (typeof version === "string" ? version : "").replace(/^v/, "");
  const [major = 0, minor = 0, patch = 0] = bare.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const belowFloor = major !== FLOOR[0] ? major < FLOOR[0] : minor !== FLOOR[1] ? minor < FLOOR[1] : patch < FLOOR[2];
  if (belowFloor) return { refuse: `${PACKAGE} needs Node ${SUPPORTED_NODE}; this is Node ${bare}.` };
  if (PROVEN_MAJORS.includes(major)) return undefined;
  return { warn: `${PACKAGE} is proven on Node ${SUPPORTED_NODE}; Node ${bare} is not yet proven.` };
}

/** Throws on a Node below the floor and warns on an unproven line; does nothing outside Node. */
export function checkNode(): void {
  const version = typeof process === "object" ? (process.versions as { node?: unknown } | undefined)?.node : undefined;
  if (typeof version !== "string") return;
  const verdict = nodeVerdict(version);
  if (verdict === undefined) return;
  if ("refuse" in verdict) throw new Error(verdict.refuse);
  process.emitWarning(verdict.warn, { code: "COCOON_UNPROVEN_NODE" });
}
