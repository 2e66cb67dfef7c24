import { GoDecodeError, INT64_SAFE, STRING, always, encodeGo, indentGoJSON, oe, struct, unmarshalGo } from "../../internal/go/index.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { GO_SET, VM_FIELDS } from "../../oci/snapshot-config.js";
import { acceptSnapshotEnvelope } from "../export/envelope-check.generated.js";
import type { SnapshotEnvelope, SnapshotExportConfig } from "../export/envelope-schema.js";
import { ExportFormatError } from "../export/export-format-error.js";

/** The name of the envelope entry in cocoon's export and import tars. */
export const ENVELOPE_NAME = "snapshot.json";

/**
 * The largest `snapshot.json` a push reads. Go's has no cap; cocoon's envelopes are a few hundred
 * bytes, and a push must not hold an unbounded entry in memory to parse it.
 */
export const MAX_ENVELOPE_SIZE = 1 << 20;

/** The `config` of cocoon's `snapshot.json`, with the config blob's field names. */
export type ExportConfig = Omit<SnapshotConfig, "schemaVersion" | "snapshotId" | "files" | "createdAt"> & {
  /** The snapshot id (`id` in `snapshot.json`). */
  readonly snapshotId: string;
};

/** Writes `snapshot.json` as Go's pull does (`MarshalEnvelope`): version 1, 2-space indent, snake_case keys, a trailing newline. */
export function marshalEnvelope(cfg: SnapshotConfig, localName: string): string {
  const config = {
    id: cfg.snapshotId,
    name: localName,
    description: cfg.description,
    image: cfg.image,
    image_digest: cfg.imageDigest,
    image_type: cfg.imageType,
    image_blob_ids: cfg.imageBlobIds && Object.fromEntries(cfg.imageBlobIds.map((id) => [id, {}])),
    hypervisor: cfg.hypervisor,
    cpu: cfg.cpu,
    memory: cfg.memory,
    storage: cfg.storage,
    nics: cfg.nics,
    network: cfg.network,
    windows: cfg.windows,
  };
  return `${indentGoJSON(encodeGo(ENVELOPE, { version: 1, config }, () => undefined))}\n`;
}

/** Writes `snapshot.json` as cocoon's export does: Go's `json.Marshal` of the envelope, version 1, compact, no newline. */
export function marshalExportEnvelope(config: SnapshotExportConfig): string {
  return encodeGo(ENVELOPE, { version: 1, config }, () => undefined, { root: "snapshotExportEnvelope" });
}

/** cocoon's `snapshotExportEnvelope` and its `snapshotExportConfig`. */
const ENVELOPE = struct(
  always("version", INT64_SAFE),
  always(
    "config",
    struct(
      oe("id", STRING),
      always("name", STRING),
      oe("description", STRING),
      oe("image", STRING),
      oe("image_digest", STRING),
      oe("image_type", STRING),
      oe("image_blob_ids", GO_SET),
      ...VM_FIELDS,
    ),
  ),
);

/** The envelope's config as decoded: every field, a nil set absent. */
interface DecodedExportConfig {
  readonly id: string;
  readonly description: string;
  readonly image: string;
  readonly image_digest: string;
  readonly image_type: string;
  readonly image_blob_ids?: Readonly<Record<string, object>>;
  readonly hypervisor: string;
  readonly cpu: number;
  readonly memory: number;
  readonly storage: number;
  readonly nics: number;
  readonly network: string;
  readonly windows: boolean;
}

/** The Go decoder's errors (`json: cannot unmarshal …`, syntax), prefixed as Go's push prefixes them, naming the field. */
function decodeEnvelope(data: Uint8Array): { version: number; config: DecodedExportConfig } {
  try {
    return unmarshalGo(ENVELOPE, new TextDecoder().decode(data), "snapshotExportConfig", {
      reader: "decoder",
      rootName: "snapshotExportEnvelope",
    }) as { version: number; config: DecodedExportConfig };
  } catch (err) {
    const decode = (err as Error).cause;
    const field = decode instanceof GoDecodeError ? decode.path.replace(/^snapshotExportConfig\.?/u, "") : "";
    throw new ExportFormatError(ENVELOPE_NAME, field, `parse ${ENVELOPE_NAME}: ${(err as Error).message}`, { cause: err });
  }
}

/** `snapshot.json` as Go decoded it, refused by `SnapshotEnvelopeSchema`: {@link parseEnvelope} explains it. */
export class RefusedEnvelope extends Error {
  /** The canonical envelope (Go's decoding, written back as JSON and parsed). */
  readonly decoded: unknown;
  constructor(decoded: unknown) {
    super(`${ENVELOPE_NAME}: refused by the export format`);
    this.decoded = decoded;
  }
}

/**
 * Reads cocoon's `snapshot.json` as Go's push does (`json.Decoder`: the first JSON value, keys
 * matched case-insensitively, unknown fields ignored, Go's errors prefixed `parse snapshot.json: `),
 * then checks what Go decoded, as Go would write it back, against `SnapshotEnvelopeSchema` (its
 * generated check, which loads no zod): a version of at least 1, a non-empty id, no negative count.
 *
 * @throws ExportFormatError naming the field, for what Go's decoder refuses; {@link RefusedEnvelope}
 * for what the schema refuses.
 */
export function readEnvelope(data: Uint8Array): SnapshotEnvelope {
  const canonical: unknown = JSON.parse(encodeGo(ENVELOPE, decodeEnvelope(data), () => undefined));
  const envelope = acceptSnapshotEnvelope(canonical);
  if (envelope === undefined) throw new RefusedEnvelope(canonical);
  return envelope;
}

/** The schema's own verdict on a refused envelope, as an {@link ExportFormatError} naming the field; zod is loaded only here. */
async function explain(refused: RefusedEnvelope): Promise<SnapshotEnvelope> {
  const [{ SnapshotEnvelopeSchema }, { issueError }] = await Promise.all([
    import("../export/envelope-schema.js"),
    import("../export/schema-issues.js"),
  ]);
  const checked = SnapshotEnvelopeSchema.safeParse(refused.decoded);
  if (!checked.success) throw issueError(ENVELOPE_NAME, checked.error);
  return checked.data;
}

/**
 * {@link readEnvelope}, as the config blob's fields.
 *
 * @throws ExportFormatError naming the field: the text `SnapshotEnvelopeSchema` gives.
 */
export async function parseEnvelope(data: Uint8Array): Promise<ExportConfig> {
  let envelope: SnapshotEnvelope;
  try {
    envelope = readEnvelope(data);
  } catch (err) {
    if (!(err instanceof RefusedEnvelope)) throw err;
    envelope = await explain(err);
  }
  const c = envelope.config;
  return {
    snapshotId: c.id,
    description: c.description ?? "",
    image: c.image ?? "",
    imageDigest: c.image_digest ?? "",
    imageType: c.image_type ?? "",
    ...(c.image_blob_ids && { imageBlobIds: Object.keys(c.image_blob_ids) }),
    hypervisor: c.hypervisor ?? "",
    cpu: c.cpu ?? 0,
    memory: c.memory ?? 0,
    storage: c.storage ?? 0,
    nics: c.nics ?? 0,
    network: c.network ?? "",
    windows: c.windows ?? false,
  };
}
