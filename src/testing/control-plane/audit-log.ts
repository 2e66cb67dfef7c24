import { open } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { CocoonError } from "../../errors.js";

/** Where a control plane started with `auditLog: true` keeps its audit policy and log. @internal */
export interface AuditFiles {
  /** `--audit-policy-file`: every request at level `Metadata`, `RequestReceived` omitted. */
  policy: string;
  /** `--audit-log-path`: one JSON event per line. */
  log: string;
}

/** The audit files under the control plane's folder `dir`. @internal */
export function auditFiles(dir: string): AuditFiles {
  return { policy: join(dir, "audit-policy.yaml"), log: join(dir, "audit.log") };
}

/** The audit policy: every request at `Metadata` (who, what, the verdict; no bodies), once it is answered. @internal */
export const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
`;

/** kube-apiserver's audit flags for `files`: JSON lines, written before the request is answered. @internal */
export function auditArgs(files: AuditFiles): string[] {
  return [`--audit-policy-file=${files.policy}`, `--audit-log-path=${files.log}`, "--audit-log-format=json", "--audit-log-mode=blocking"];
}

/**
 * One `audit.k8s.io/v1` `Event` as the API server logs it at level `Metadata`: who asked, what, and
 * the answer. Only the fields tests read are typed; the rest pass through.
 *
 * @example
 * ```ts
 * const denied = (await plane.auditEvents()).filter((e) => e.responseStatus?.code === 403);
 * ```
 */
export const AuditEventSchema = z.looseObject({
  auditID: z.string(),
  stage: z.string(),
  requestURI: z.string(),
  /** The authorizer's verb: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, ... */
  verb: z.string(),
  user: z.looseObject({ username: z.string().default(""), groups: z.array(z.string()).default([]) }),
  objectRef: z
    .looseObject({
      resource: z.string().optional(),
      subresource: z.string().optional(),
      namespace: z.string().optional(),
      name: z.string().optional(),
      apiGroup: z.string().optional(),
      apiVersion: z.string().optional(),
    })
    .optional(),
  responseStatus: z.looseObject({ code: z.number().optional() }).optional(),
  /** `authorization.k8s.io/decision` (`allow`, `forbid`) and `authorization.k8s.io/reason`, among others. */
  annotations: z.record(z.string(), z.string()).optional(),
});
/** One audit event; see {@link AuditEventSchema}. */
export type AuditEvent = z.output<typeof AuditEventSchema>;

/** Options of `ControlPlane.auditEvents`. */
export interface AuditEventsOptions {
  /** Refuse a log larger than this many bytes instead of reading it; default 64 MiB. */
  maxBytes?: number;
}

/** Default cap of one audit log read. */
export const DEFAULT_MAX_AUDIT_BYTES = 64 * 2 ** 20;

/**
 * Reads and parses the audit log `file`, oldest event first; a partly written last line is left
 * for the next read.
 *
 * @throws CocoonError `ERR_AUDIT_LOG` when the log is past `maxBytes` or a line is not an audit event.
 * @internal
 */
export async function readAuditLog(file: string, options: AuditEventsOptions = {}): Promise<AuditEvent[]> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_AUDIT_BYTES;
  const handle = await open(file, "r").catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined; // nothing audited yet
    throw err;
  });
  if (handle === undefined) return [];
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new CocoonError("ERR_AUDIT_LOG", `audit log ${file} holds ${size} bytes, more than the ${maxBytes} a read takes`);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    const text = buffer.toString("utf8", 0, bytesRead);
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    return complete
      .split("\n")
      .filter((line) => line !== "")
      .map((line, i) => parseAuditLine(line, `${file}:${i + 1}`));
  } finally {
    await handle.close();
  }
}

function parseAuditLine(line: string, where: string): AuditEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new CocoonError("ERR_AUDIT_LOG", `${where}: not JSON`, { cause: err });
  }
  const parsed = AuditEventSchema.safeParse(value);
  if (!parsed.success)
    throw new CocoonError("ERR_AUDIT_LOG", `${where}: not an audit event: ${parsed.error.message}`, { cause: parsed.error });
  return parsed.data;
}
