import type { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { setTimeout as delay } from "node:timers/promises";
import { CocoonError } from "../errors.js";
import { callOptions } from "./call-options.js";
import { createClients } from "./clients.js";

/** Server-side apply sends JSON (a subset of YAML) under this content type. */
const APPLY_PATCH = "application/apply-patch+yaml";
const CRD_RESOURCE = { group: "apiextensions.k8s.io", version: "v1", plural: "customresourcedefinitions" } as const;
const POLL_MS = 100;

/**
 * Options of {@link installCRDs}.
 *
 * @example
 * ```ts
 * const options: InstallCRDsOptions = { timeoutMs: 120_000, fieldManager: "cocoon-operator" };
 * await installCRDs(clients, options); // both CRDs applied and Established, or a TimeoutError
 * ```
 */
export interface InstallCRDsOptions {
  /** Aborts the install; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** How long to wait in total, including for `Established`; default 60 000 ms. Rejects with a `TimeoutError`. */
  timeoutMs?: number | undefined;
  /** Field manager of the server-side apply; default `"cocoon-common"`. */
  fieldManager?: string | undefined;
}

/** The client {@link installCRDs} needs: client-node's `CustomObjectsApi`, or {@link CocoonClients}. */
export interface InstallCRDsClients {
  /** Used on `apiextensions.k8s.io/v1/customresourcedefinitions`, whose bodies it sends untouched. */
  readonly customObjects: Pick<CustomObjectsApi, "patchClusterCustomObject" | "getClusterCustomObject">;
}

interface CRDCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

/**
 * Installs or updates the CocoonSet and CocoonHibernation CRDs and waits until both are `Established`.
 *
 * Each CRD is sent whole with one server-side apply (forced, field manager `cocoon-common`), so it
 * creates or updates in one idempotent request. The typed `ApiextensionsV1Api` is deliberately not
 * used: client-node serializes a typed body by its model's attribute names and would drop every
 * `x-kubernetes-*` key (the CEL rules, int-or-string, list types). `CustomObjectsApi` sends its
 * `body` as plain JSON, and its cluster-scoped path is exactly the CRD resource's.
 *
 * @param target - A `KubeConfig` (clients are made and closed here) or clients with `customObjects`.
 * @throws `DOMException` named `TimeoutError` when a CRD is not established in time; the signal's
 * reason when aborted; {@link CocoonError} `ERR_INVALID_OBJECT` when the server refuses a CRD's names;
 * client-node's `ApiException` when the server refuses the apply.
 * @example
 * ```ts
 * await installCRDs(loadKubeConfig(), { timeoutMs: 30_000 });
 * ```
 */
export async function installCRDs(target: KubeConfig | InstallCRDsClients, options: InstallCRDsOptions = {}): Promise<void> {
  const owned = "customObjects" in target ? undefined : createClients(target);
  const { customObjects } = owned ?? (target as InstallCRDsClients);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const progress = new Map<string, string>();
  try {
    signal.throwIfAborted();
    // Loaded here, not at the top: the CRDs are generated from the zod schemas, and `./k8s` itself loads without zod.
    const { cocoonSetCRD, cocoonHibernationCRD } = await import("../apis/v1/crd.js");
    const crds = [cocoonSetCRD, cocoonHibernationCRD];
    for (const crd of crds) progress.set(crd.metadata.name, "not applied yet");
    for (const crd of crds) {
      await customObjects.patchClusterCustomObject(
        { ...CRD_RESOURCE, name: crd.metadata.name, body: crd, fieldManager: options.fieldManager ?? "cocoon-common", force: true },
        callOptions({ contentType: APPLY_PATCH, signal }),
      );
      progress.set(crd.metadata.name, "applied, no conditions yet");
    }
    for (const crd of crds) await waitEstablished(customObjects, crd.metadata.name, signal, progress);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      const state = [...progress].map(([name, last]) => `${name}: ${last}`).join("; ");
      throw new DOMException(`CRDs not established within ${timeoutMs} ms (${state})`, "TimeoutError");
    }
    throw err;
  } finally {
    owned?.close();
  }
}

async function waitEstablished(
  customObjects: InstallCRDsClients["customObjects"],
  name: string,
  signal: AbortSignal,
  progress: Map<string, string>,
): Promise<void> {
  for (;;) {
    const crd = (await customObjects.getClusterCustomObject({ ...CRD_RESOURCE, name }, callOptions({ signal }))) as {
      status?: { conditions?: CRDCondition[] };
    };
    const conditions = crd.status?.conditions ?? [];
    const find = (type: string): CRDCondition | undefined => conditions.find((c) => c.type === type);
    if (find("Established")?.status === "True") return;
    const names = find("NamesAccepted");
    if (names?.status === "False") {
      throw new CocoonError("ERR_INVALID_OBJECT", `CRD ${name}: names not accepted: ${names.reason ?? ""} ${names.message ?? ""}`.trim());
    }
    progress.set(
      name,
      conditions.map((c) => `${c.type ?? "?"}=${c.status ?? "?"}${c.message ? ` (${c.message})` : ""}`).join(", ") || "no conditions yet",
    );
    await delay(POLL_MS, undefined, { signal });
  }
}
