// Test-only fakes for the client-node API clients: they record every call as the wire would see it.
import { ApiException, HttpMethod, RequestContext, type ConfigurationOptions } from "@kubernetes/client-node";

/** One recorded API call: the method, its parameter object, and what the per-call options would put on the request. */
export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  contentType: string | undefined;
  signal: AbortSignal | undefined;
  /** The body text the per-call options put on the wire, when they set one. */
  wireBody: string | undefined;
}

/** Answers one call: a value, or a thrown error (e.g. {@link apiError}). */
export type Responder = (method: string, params: Record<string, unknown>) => unknown;

/** Runs the per-call middleware on a blank request to see the headers and signal it sets. */
export async function applyOptions(options: ConfigurationOptions | undefined): Promise<RequestContext> {
  const context = new RequestContext("https://fake.invalid/", HttpMethod.PATCH);
  for (const middleware of options?.middleware ?? []) await middleware.pre(context).toPromise();
  return context;
}

/** A fake API client: every method records its call and answers with `respond`. */
export function fakeApi<T>(respond: Responder): { api: T; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const api = new Proxy(
    {},
    {
      get: (_target, method) =>
        typeof method !== "string"
          ? undefined
          : async (params: Record<string, unknown>, options?: ConfigurationOptions) => {
              const context = await applyOptions(options);
              const body: unknown = context.getBody();
              const wireBody = typeof body === "string" ? body : undefined;
              calls.push({ method, params, contentType: context.getHeaders()["Content-Type"], signal: context.getSignal(), wireBody });
              return respond(method, params);
            },
    },
  ) as T;
  return { api, calls };
}

/** client-node's error for an HTTP failure, with a Kubernetes `Status` body as the server sends it. */
export function apiError(code: number, reason: string, message = reason): ApiException<string> {
  const body = JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason, message });
  return new ApiException(code, `HTTP-Code: ${code}\nMessage: Unknown API Status Code!\nBody: ${body}`, body, {});
}

/**
 * What a server answers for the object a call names: its kind and apiVersion (from the method's
 * `plural`, a Pod without one), namespace and name, and `uid` when given. The helpers refuse an
 * answer that is not the object they asked for.
 */
export function servedAs(
  params: Record<string, unknown>,
  uid?: string,
): { kind: string; apiVersion: string; metadata: Record<string, unknown> } {
  const plural = params["plural"];
  const kind = plural === "cocoonsets" ? "CocoonSet" : plural === "cocoonhibernations" ? "CocoonHibernation" : "Pod";
  const apiVersion = kind === "Pod" ? "v1" : "cocoonset.cocoonstack.io/v1";
  return { kind, apiVersion, metadata: { name: params["name"], namespace: params["namespace"], ...(uid === undefined ? {} : { uid }) } };
}

/** The `Status` a server answers a delete with once the object is gone. */
export const STATUS_SUCCESS = { kind: "Status", apiVersion: "v1", status: "Success", metadata: {} } as const;
