import {
  Observable,
  setHeaderOptions,
  type ConfigurationOptions,
  type ObservableMiddleware,
  type RequestContext,
} from "@kubernetes/client-node";

/** What one call through client-node's generated APIs may carry. */
export interface CallSettings {
  /** `Content-Type` of the request body, e.g. `PatchStrategy.MergePatch`. */
  contentType?: string | undefined;
  /** Aborts the request; the call rejects with the signal's reason or node-fetch's `AbortError`. */
  signal?: AbortSignal | undefined;
  /** The request body's exact text, put in place of the one client-node serialized with `JSON.stringify`. */
  body?: string | undefined;
}

/** `setHeaderOptions("Content-Type", …)` per content type, made once: client-node only reads them. */
const contentTypes = new Map<string, ConfigurationOptions>();

function contentTypeOptions(contentType: string): ConfigurationOptions {
  let options = contentTypes.get(contentType);
  if (options === undefined) {
    options = Object.freeze(setHeaderOptions("Content-Type", contentType));
    if (contentTypes.size < 16) contentTypes.set(contentType, options);
  }
  return options;
}

/**
 * A middleware that hands the request's abort signal to the HTTP library. client-node before 1.4
 * has no `RequestContext.setSignal`: there a signal only stops a helper between requests.
 */
function signalMiddleware(signal: AbortSignal): ObservableMiddleware {
  return {
    pre: (context: RequestContext) => {
      if (typeof (context as Partial<RequestContext>).setSignal === "function") context.setSignal(signal);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
}

/** A middleware that sends `body` as it is: client-node writes the body before any middleware runs. */
function bodyMiddleware(body: string): ObservableMiddleware {
  return {
    pre: (context: RequestContext) => {
      context.setBody(body);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
}

/**
 * Builds the per-call options of a generated client-node API method: a `Content-Type` override
 * (client-node sends `application/json-patch+json` for every patch unless told otherwise), the
 * body's exact bytes and an abort signal. Middleware is appended to the client's own, never replacing it.
 *
 * @internal
 */
export function callOptions(settings: CallSettings = {}): ConfigurationOptions | undefined {
  const { contentType, signal, body } = settings;
  let options: ConfigurationOptions | undefined;
  if (contentType !== undefined) options = contentTypeOptions(contentType);
  const middleware = [...(body === undefined ? [] : [bodyMiddleware(body)]), ...(signal === undefined ? [] : [signalMiddleware(signal)])];
  if (middleware.length > 0) {
    options = { ...options, middleware: [...(options?.middleware ?? []), ...middleware], middlewareMergeStrategy: "append" };
  }
  return options;
}

/**
 * Sends `deleteNamespacedPod` with the `DeleteOptions` body's exact bytes (client-node would drop
 * fields its model lacks). Here so that {@link finishPodDeletion} loads client-node only for client-node clients.
 *
 * @internal
 */
export function deletePod(
  core: {
    deleteNamespacedPod(params: { name: string; namespace: string; body: object }, options?: ConfigurationOptions): Promise<unknown>;
  },
  params: { name: string; namespace: string; body: object },
  signal: AbortSignal | undefined,
): Promise<unknown> {
  return core.deleteNamespacedPod(params, callOptions({ signal, body: JSON.stringify(params.body) }));
}
