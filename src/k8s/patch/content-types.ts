/** `Content-Type` of a JSON merge patch (client-node's `PatchStrategy.MergePatch`), without loading client-node. @internal */
export const MERGE_PATCH = "application/merge-patch+json";
