/**
 * VM snapshots over OCI, wire-compatible with Go cocoon-common's `snapshot` and `cloudimg`:
 * push a `cocoon snapshot export` stream (v1, or v2 with zstd and chunks), pull it back as a
 * `cocoon snapshot import` tar, stream cloud images, and plan the node's kept-snapshot cache.
 *
 * Loads `./oci` and a zstd codec (WASM encoder, JavaScript decoder); nothing else.
 *
 * @module
 */
export { planSnapshotCache } from "./cache-planner.js";
export type { HibernationHint, NodeSnapshot, SnapshotCacheInput, SnapshotCachePlan } from "./cache-planner.js";
export { diskLayers, streamCloudImage, streamCloudImageParsed } from "./cloudimg.js";
export type { CloudImageOptions } from "./cloudimg.js";
export { EXPORT_READ_SIZE, ExportFile, readExportFile } from "./export-file.js";
export { fetchSnapshotConfig } from "./fetch-config.js";
export { streamSnapshot, streamSnapshotParsed } from "./pull.js";
export { pushSnapshot } from "./push.js";
export { pipelineParams } from "./push-options.js";
export type { PipelineParams, PushOptions, PushResult } from "./push-options.js";
export { PULL_DEFAULTS } from "./stream-options.js";
export type { StreamOptions } from "./stream-options.js";
