import { STATUS_CODES } from "node:http";
import { codeForStatus, RegistryError } from "../errors.js";

/** The parts of an OCI distribution error body (`{"errors":[{"code","message"}]}`) a message uses. */
interface ErrorBody {
  errors?: { code?: unknown; message?: unknown }[];
}

/**
 * Turns an unexpected answer into a {@link RegistryError}: `<what>: <CODE>: <message>` when the
 * registry sent an error body, else `<what>: unexpected status code 401 Unauthorized` as Go prints it.
 */
export async function statusError(what: string, request: string, response: Response, forbidden = false): Promise<RegistryError> {
  const text = response.body === null ? "" : await response.text().catch(() => "");
  return errorForStatus(what, request, response.status, text, forbidden);
}

/** {@link statusError} for an answer whose body was already read. */
export function errorForStatus(what: string, request: string, status: number, text: string, forbidden = false): RegistryError {
  const detail = registryErrors(text) ?? `unexpected status code ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd();
  const code = forbidden ? "ERR_REGISTRY_FORBIDDEN" : codeForStatus(status);
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
  return current instanceof Error ? current.message : String(current);
}
