/**
 * The format of a `cocoon snapshot export` tar, as zod schemas, and its writer: `snapshot.json`
 * (`SnapshotEnvelopeSchema` around `SnapshotExportConfigSchema`) and `createSnapshotExport`, which
 * checks a whole export against them before it writes a byte. A push or a pull needs none of it:
 * `./snapshot` checks `snapshot.json` without zod, so that a process that only moves snapshots
 * never loads it.
 *
 * Loads `./snapshot` and zod; no other package.
 *
 * @module
 */
export { createSnapshotExport } from "./create-snapshot-export.js";
export type { SnapshotExportOptions } from "./create-snapshot-export.js";
export { SnapshotEnvelopeSchema, SnapshotExportConfigSchema } from "./envelope-schema.js";
export type { SnapshotEnvelope, SnapshotExportConfig } from "./envelope-schema.js";
export type { SnapshotExportFile } from "./export-plan.js";
