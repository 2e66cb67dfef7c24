import { z } from "zod";

/** The message of a missing or wrongly typed field: `is required (…)` or `must be a … (…)`. */
const typed =
  (type: string, what: string) =>
  (issue: { readonly input: unknown }): string =>
    issue.input === undefined ? `is required (${what})` : `must be ${type} (${what})`;

const text = () => z.string({ error: "must be a string" }).optional();
const count = (what: string) =>
  z
    .int({ error: `must be an integer (${what})` })
    .nonnegative({ error: `must not be negative (${what})` })
    .optional();

/**
 * The `config` of `snapshot.json`: cocoon's snapshot record as Go's `snapshot` package reads and
 * writes it (`snapshotExportConfig`), snake_case keys as on the wire.
 *
 * Every field but `name` is `omitempty` in Go: an empty string, a 0, `false` or an empty set is
 * the same as the field left out. Stricter than Go on purpose (docs/differences-from-go.md): `id`
 * must be a non-empty string (it becomes the artifact's `snapshotId`), the counts must not be
 * negative, and, parsing a value given in TypeScript, a key that is not a field is refused.
 *
 * @example
 * ```ts
 * const config = SnapshotExportConfigSchema.parse({ id: "snap-1", name: "vm-a", cpu: 2, memory: 2 ** 30 });
 * config.hypervisor; // => undefined
 * ```
 */
export const SnapshotExportConfigSchema = z.strictObject(
  {
    /** The snapshot id; the config blob's `snapshotId`. Required here, `omitempty` in Go. */
    id: z.string({ error: typed("a string", "the snapshot id") }).min(1, { error: "must not be empty (the snapshot id)" }),
    /** The snapshot's name; a pull writes its own (`localName`) instead. Always written, may be empty. */
    name: z.string({ error: typed("a string", "the snapshot name") }),
    /** Free text. */
    description: text(),
    /** The base image reference. */
    image: text(),
    /** The base image digest. */
    image_digest: text(),
    /** The base image type (`cloudimg`, `oci`, ...). */
    image_type: text(),
    /** The base image's blob ids: a Go set (`map[string]struct{}`), each value `{}`. */
    image_blob_ids: z
      .record(z.string(), z.strictObject({}, { error: "must be {} (a member of a set)" }), {
        error: "must be an object (a set of blob ids)",
      })
      .optional(),
    /** The hypervisor (`cloud-hypervisor`, ...). */
    hypervisor: text(),
    /** vCPU count. */
    cpu: count("vCPUs"),
    /** Memory in bytes. */
    memory: count("bytes"),
    /** Storage in bytes. */
    storage: count("bytes"),
    /** NIC count. */
    nics: count("NICs"),
    /** The network (`cni-bridge`, ...). */
    network: text(),
    /** Whether the guest is Windows. */
    windows: z.boolean({ error: "must be a boolean" }).optional(),
  },
  { error: typed("an object", "the snapshot record") },
);

/** The `config` of `snapshot.json`, as {@link SnapshotExportConfigSchema} parses it. */
export type SnapshotExportConfig = z.infer<typeof SnapshotExportConfigSchema>;

/**
 * `snapshot.json`, the first entry of a `cocoon snapshot export` tar: the versioned envelope
 * (`snapshotExportEnvelope`) around {@link SnapshotExportConfigSchema}.
 *
 * Go writes `version` 1 and reads any integer; here it must be 1 or more (a `snapshot.json`
 * without the envelope, its fields at the top, reads as version 0 and no `config` in Go).
 *
 * @example
 * ```ts
 * const envelope = SnapshotEnvelopeSchema.parse(JSON.parse('{"version":1,"config":{"id":"snap-1","name":"vm-a"}}'));
 * envelope.config.id; // => "snap-1"
 * SnapshotEnvelopeSchema.safeParse({ id: "snap-1", name: "vm-a" }).success; // => false
 * ```
 */
export const SnapshotEnvelopeSchema = z.strictObject({
  /** The envelope version: Go writes 1. */
  version: z.int({ error: typed("an integer", "the envelope version") }).min(1, { error: "must be 1 or more (the envelope version)" }),
  /** The snapshot record. */
  config: SnapshotExportConfigSchema,
});

/** `snapshot.json`, as {@link SnapshotEnvelopeSchema} parses it. */
export type SnapshotEnvelope = z.infer<typeof SnapshotEnvelopeSchema>;
