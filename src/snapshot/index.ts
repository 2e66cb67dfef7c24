/**
 * VM snapshots over OCI, wire-compatible with Go cocoon-common's `snapshot` and `cloudimg`: push a
 * `cocoon snapshot export` tar (v1, or v2 with zstd and chunks), pull it back as a `cocoon snapshot
 * import` tar, restore an import tar into a directory, stream cloud images, and plan the node's
 * kept-snapshot cache. The export format's zod schemas and its writer are `./snapshot/export`.
 *
 * Loads `./oci` and, on the first v2 push or pull, Node's own zstd (`node:zlib`); no other package
 * (no zod: a push checks `snapshot.json` with a check generated from the schema).
 *
 * @module
 */
export { planSnapshotCache } from "./cache-planner.js";
export type { HibernationHint, NodeSnapshot, SnapshotCacheInput, SnapshotCachePlan } from "./cache-planner.js";
export { diskLayers, streamCloudImage, streamCloudImageParsed } from "./cloudimg.js";
export type { CloudImageOptions } from "./cloudimg.js";
export { SparsePAX } from "./codec/sparse-pax.js";
export { ExportFormatError, isExportFormatError } from "./export/export-format-error.js";
export { formatSparseMap, parseSparseRecords } from "./export/sparse-records.js";
export type { SparseExtent, SparseLayout } from "./export/sparse-records.js";
export { EXPORT_READ_SIZE, ExportFile, readExportFile } from "./io/export-file.js";
export { fetchSnapshotConfig } from "./pull/fetch-config.js";
export { streamSnapshot, streamSnapshotParsed } from "./pull/pull.js";
export { pullSnapshot } from "./pull/pull-snapshot.js";
export type { PullOptions, PullResult } from "./pull/pull-snapshot.js";
export { pushSnapshot } from "./push/push.js";
export { restoreSnapshot } from "./restore/restore-snapshot.js";
export type { RestoredFile, RestoreOptions, RestoreResult } from "./restore/restore-snapshot.js";
export { MAX_RESTORE_NAME } from "./restore/entry-checks.js";
export { pipelineParams } from "./push/push-options.js";
export type { PipelineParams, PushOptions, PushResult } from "./push/push-options.js";
export { PULL_DEFAULTS } from "./pull/stream-options.js";
export type { StreamOptions } from "./pull/stream-options.js";
