import { parseInt32, toGoInteger } from "../internal/go/index.js";
import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

/**
 * What the virtual kubelet reports about a running VM.
 *
 * @example
 * ```ts
 * const runtime: Partial<VMRuntime> = { vmID: "a1b2c3", ip: "10.88.0.7" };
 * vmRuntimeAnnotations(runtime); // => { "vm.cocoonstack.io/id": "a1b2c3", "vm.cocoonstack.io/ip": "10.88.0.7" }
 * ```
 */
export interface VMRuntime {
  /** `vm.cocoonstack.io/id`. */
  vmID: string;
  /** `vm.cocoonstack.io/ip`. */
  ip: string;
  /** `vm.cocoonstack.io/vnc-port`; 0 when unset or unparseable. */
  vncPort: number;
}

/**
 * Returns the delta that writes a VM runtime: the ID and IP when non-empty, the VNC port when
 * positive. It never deletes (Go's `VMRuntime.Apply`).
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `vncPort` is not a Go `int32`.
 * @example
 * ```ts
 * vmRuntimeAnnotations({ vmID: "vm-1", ip: "10.0.0.7", vncPort: 5900 });
 * ```
 */
export function vmRuntimeAnnotations(runtime: Partial<VMRuntime>): AnnotationDelta {
  const delta: Record<string, string> = {};
  if (runtime.vmID) delta[Annotation.VMID] = runtime.vmID;
  if (runtime.ip) delta[Annotation.IP] = runtime.ip;
  const port = runtime.vncPort === undefined ? 0n : toGoInteger(runtime.vncPort, "vnc port", 32);
  if (port > 0n) delta[Annotation.VNCPort] = String(port);
  return delta;
}

/** Writes the VM runtime on the pod, in place; the annotations map is created even when nothing is written. */
export function applyVMRuntime(obj: Annotated, runtime: Partial<VMRuntime>): void {
  applyAnnotations(obj, vmRuntimeAnnotations(runtime));
}

/**
 * Reads the VM runtime from the pod. The VNC port is parsed like Go's `strconv.ParseInt(v, 10, 32)`:
 * `"+5900"` and `"-1"` are accepted; anything unparseable reads as 0. Never throws, in linear time.
 *
 * @example
 * ```ts
 * parseVMRuntime({ metadata: { annotations: { [Annotation.VMID]: "vm-1", [Annotation.VNCPort]: "59O0" } } });
 * // => { vmID: "vm-1", ip: "", vncPort: 0 }
 * ```
 */
export function parseVMRuntime(obj: Annotated): VMRuntime {
  const port = annotationOf(obj, Annotation.VNCPort);
  return {
    vmID: annotationOf(obj, Annotation.VMID),
    ip: annotationOf(obj, Annotation.IP),
    vncPort: port === "" ? 0 : (parseInt32(port) ?? 0),
  };
}

/**
 * Returns the delta that clears the VM runtime when the VM hibernates: it deletes the ID and the IP
 * and leaves the VNC port (the operator sets it on static toolboxes). vk-cocoon's
 * `clearRuntimeAnnotations`; {@link vmRuntimeAnnotations} can only set.
 *
 * @example
 * ```ts
 * clearVMRuntimeAnnotations(); // => { "vm.cocoonstack.io/id": null, "vm.cocoonstack.io/ip": null }
 * ```
 */
export function clearVMRuntimeAnnotations(): AnnotationDelta {
  return { [Annotation.VMID]: null, [Annotation.IP]: null };
}

/**
 * Clears the VM runtime (ID and IP) on the pod, in place; a missing annotations map stays missing.
 *
 * @example
 * ```ts
 * clearVMRuntime(pod);
 * parseVMRuntime(pod); // => { vmID: "", ip: "", vncPort: 5900 } for a toolbox with a VNC port
 * ```
 */
export function clearVMRuntime(obj: Annotated): void {
  applyAnnotations(obj, clearVMRuntimeAnnotations());
}
