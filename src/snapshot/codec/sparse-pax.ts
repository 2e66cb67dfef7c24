/**
 * The PAX records of a sparse file in cocoon's export and import tars: `Map` holds the JSON
 * array of the data segments (`[{"o":offset,"l":length},…]`), `Size` the file's full size. The
 * grammar is {@link parseSparseRecords}'s.
 *
 * @example
 * ```ts
 * const records = { [SparsePAX.Map]: formatSparseMap([{ offset: 0, length: 4096 }]), [SparsePAX.Size]: "1048576" };
 * parseSparseRecords("overlay.qcow2", records, 4096)?.size; // => 1048576
 * ```
 */
export const SparsePAX = {
  Map: "COCOON.sparse.map",
  Size: "COCOON.sparse.size",
} as const;
/** One of the {@link SparsePAX} keys. */
export type SparsePAX = (typeof SparsePAX)[keyof typeof SparsePAX];
