import { codeForStatus, RegistryError, type RegistryErrorCode } from "../errors.js";
import { readBody } from "./body.js";
import { goStatusText } from "./go-status-text.js";
import { messageOf } from "../../internal/message-of.js";
import type { RegistryResponse } from "./registry-response.js";

/** The most of an error body read; past it the body is dropped and the status speaks alone. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The parts of an OCI distribution error body (`{"errors":[{"code","message"}]}`) a message uses. */
interface ErrorBody {
  errors?: { code?: unknown; message?: unknown }[];
}

/** How to read and name an unexpected answer. */
export interface StatusErrorContext {
  readonly what: string;
  readonly request: string;
  /** Longest stall, and longest total read, of the error body. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** `ERR_REGISTRY_FORBIDDEN` whatever the status (a 401 with `insufficient_scope`). */
  readonly forbidden?: boolean;
  /** The code whatever the status (a token endpoint's answers are all auth failures). */
  readonly code?: RegistryErrorCode;
  /** Removes secrets a hostile server may echo back. */
  readonly redact?: (text: string) => string;
}

/**
 * Turns an unexpected answer into a {@link RegistryError}: `<what>: <CODE>: <message>` when the
 * registry sent an error body, else `<what>: unexpected status code 401 Unauthorized` as Go prints it.
 * The body is read up to {@link MAX_ERROR_BODY_BYTES} within `timeoutMs`; a longer, stalled or
 * broken body is dropped. An abort of `signal` rejects with its reason.
 */
export async function statusError(response: RegistryResponse, ctx: StatusErrorContext): Promise<RegistryError> {
  let text = "";
  if (response.body !== null) {
    const signal =
      ctx.signal === undefined ? AbortSignal.timeout(ctx.timeoutMs) : AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.timeoutMs)]);
    try {
      const body = await readBody(
        response,
        { what: ctx.what, request: ctx.request, idleTimeoutMs: ctx.timeoutMs, signal },
        MAX_ERROR_BODY_BYTES,
      );
      text = Buffer.from(body).toString("utf8");
    } catch {
      // Too long, stalled or broken: the status speaks alone (an abort still ends the call).
      if (ctx.signal?.aborted === true) throw ctx.signal.reason;
    }
  }
  return errorForStatus(ctx.what, ctx.request, response.status, ctx.redact === undefined ? text : ctx.redact(text), ctx);
}

/** {@link statusError} for an answer whose body was already read. */
export function errorForStatus(
  what: string,
  request: string,
  status: number,
  text: string,
  options: { readonly forbidden?: boolean; readonly code?: RegistryErrorCode } = {},
): RegistryError {
  const detail = registryErrors(text) ?? `unexpected status code ${status} ${goStatusText(status)}`.trimEnd();
  const code = options.code ?? (options.forbidden === true ? "ERR_REGISTRY_FORBIDDEN" : codeForStatus(status));
  return new RegistryError(code, `${what}: ${detail}`, { status, request });
}

function registryErrors(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as ErrorBody;
    const parts = (body.errors ?? []).map((e) => [e.code, e.message].filter((p) => typeof p === "string" && p !== "").join(": "));
    return parts.length > 0 && parts.every((p) => p !== "") ? parts.join("; ") : undefined;
  } catch {
    return undefined;
  }
}

/** Turns a failed `fetch` (refused, reset, DNS, TLS) into `ERR_REGISTRY_TRANSPORT`, naming the root cause. */
export function transportError(what: string, request: string, err: unknown): RegistryError {
  return new RegistryError("ERR_REGISTRY_TRANSPORT", `${what}: ${rootMessage(err)}`, { request, cause: err });
}

/** The deepest `cause` message of an error chain (`fetch failed` hides `connect ECONNREFUSED …`). */
export function rootMessage(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  return messageOf(current);
}
