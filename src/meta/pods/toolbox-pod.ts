import { ToolboxMode } from "../../apis/v1/enums.js";
import { applyAnnotations } from "../annotations.js";
import { fromToolboxSpec } from "../from-spec.js";
import { Role } from "../keys.js";
import { vmNameForPod } from "../vmname.js";
import { vmRuntimeAnnotations } from "../vmruntime.js";
import { vmSpecAnnotations } from "../vmspec.js";
import { newManagedPod, specOf } from "./managed-pod.js";
import { podResources } from "./resources.js";
import { applyStorageRequest } from "./storage-request.js";
import type { CocoonPod, CocoonSetLike, ToolboxLike } from "./types.js";

/**
 * Returns a toolbox's pod name: `<set>-<toolbox>`. Names are not validated (Go does not either);
 * the operator refuses integer-like toolbox names, which would collide with agent slots.
 *
 * @example
 * ```ts
 * toolboxPodName("demo", "db"); // => "demo-db"
 * ```
 */
export function toolboxPodName(cocoonSet: string, toolbox: string): string {
  return `${cocoonSet}-${toolbox}`;
}

/**
 * Returns a toolbox's pod, exactly as the Go operator builds it (`buildToolboxPod`): the VM spec
 * from {@link fromToolboxSpec} (a `static` toolbox is not `managed` and also carries its VM ID,
 * IP and VNC port), the toolbox's resources with the storage request. Toolbox pods get no
 * service account, `envFrom` or affinity. The set and toolbox are never changed.
 *
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a storage or resource that is not a
 * quantity; `ERR_INVALID_INTEGER` for a generation, probe or VNC port Go could not hold.
 * @example
 * ```ts
 * const pod = buildToolboxPod(set, { name: "db", image: "ghcr.io/cocoonstack/postgres:16" });
 * pod.metadata.name; // => "demo-db"
 * ```
 */
export function buildToolboxPod(set: CocoonSetLike, toolbox: ToolboxLike): CocoonPod {
  const podName = toolboxPodName(set.metadata?.name ?? "", toolbox.name);
  const vmName = vmNameForPod(set.metadata?.namespace ?? "", podName);
  const pod = newManagedPod(set, podName, Role.Toolbox, toolbox.name);
  applyAnnotations(pod, vmSpecAnnotations(fromToolboxSpec(toolbox, vmName, specOf(set).snapshotPolicy)));
  if (toolbox.mode === ToolboxMode.Static) {
    applyAnnotations(
      pod,
      vmRuntimeAnnotations({ vmID: toolbox.staticVMID ?? "", ip: toolbox.staticIP ?? "", vncPort: toolbox.vncPort ?? 0 }),
    );
  }
  pod.spec.containers[0].resources = applyStorageRequest(podResources(toolbox.resources), toolbox.storage);
  return pod;
}
