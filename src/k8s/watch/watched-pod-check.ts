import { hasCocoonTolerationKey } from "../../meta/index.js";
import type { WatchedPod } from "./watched-pod.js";

// The checks of WatchedPodSchema written out by hand, for the watch's hot path: a pod event is
// checked in place instead of copied by zod. Only a pod that fails here goes through the schema,
// which says why; a property test holds the two to the same verdict on every JSON value.

type Json = Record<string, unknown>;
type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === "string";
const isBoolean: Check = (value) => typeof value === "boolean";
const optional = (value: unknown, check: Check): boolean => value === undefined || check(value);
const arrayOf =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) && (value as unknown[]).every(item);
const isStringMap: Check = (value) => isObject(value) && Object.values(value).every(isString);
/** A `metav1.Time`: its RFC 3339 text, or `null` (the zero time, e.g. a condition's `lastProbeTime`). */
const isTime: Check = (value) => value === null || isString(value);
/** An `int64` a JavaScript number holds exactly. */
const isSafeInteger: Check = (value) => Number.isSafeInteger(value);

const isOwnerReference: Check = (ref) =>
  isObject(ref) &&
  isString(ref["apiVersion"]) &&
  isString(ref["kind"]) &&
  isString(ref["name"]) &&
  isString(ref["uid"]) &&
  optional(ref["controller"], isBoolean);

const isToleration: Check = (toleration) =>
  isObject(toleration) &&
  optional(toleration["key"], isString) &&
  optional(toleration["operator"], isString) &&
  optional(toleration["value"], isString) &&
  optional(toleration["effect"], isString);

const isContainer: Check = (container) => isObject(container) && isString(container["name"]) && optional(container["image"], isString);
const isCondition: Check = (condition) =>
  isObject(condition) &&
  isString(condition["type"]) &&
  isString(condition["status"]) &&
  optional(condition["reason"], isString) &&
  optional(condition["message"], isString) &&
  optional(condition["observedGeneration"], isSafeInteger) &&
  optional(condition["lastProbeTime"], isTime) &&
  optional(condition["lastTransitionTime"], isTime);
const isRunningState: Check = (state) => isObject(state) && optional(state["startedAt"], isTime);
const isTerminatedState: Check = (state) =>
  isObject(state) && optional(state["startedAt"], isTime) && optional(state["finishedAt"], isTime);
const isContainerState: Check = (state) =>
  isObject(state) && optional(state["running"], isRunningState) && optional(state["terminated"], isTerminatedState);
const isContainerStatus: Check = (status) =>
  isObject(status) && isString(status["name"]) && optional(status["ready"], isBoolean) && optional(status["state"], isContainerState);
const isPodIP: Check = (ip) => isObject(ip) && optional(ip["ip"], isString);

const isOwnerReferences = arrayOf(isOwnerReference);
const isStrings = arrayOf(isString);
const isTolerations = arrayOf(isToleration);
const isContainers = arrayOf(isContainer);
const isConditions = arrayOf(isCondition);
const isContainerStatuses = arrayOf(isContainerStatus);
const isPodIPs = arrayOf(isPodIP);

const isPodMetadata: Check = (metadata) =>
  isObject(metadata) &&
  isString(metadata["name"]) &&
  isString(metadata["namespace"]) &&
  isString(metadata["uid"]) &&
  isString(metadata["resourceVersion"]) &&
  optional(metadata["creationTimestamp"], isString) &&
  optional(metadata["deletionTimestamp"], isString) &&
  optional(metadata["labels"], isStringMap) &&
  optional(metadata["annotations"], isStringMap) &&
  optional(metadata["ownerReferences"], isOwnerReferences) &&
  optional(metadata["finalizers"], isStrings);

const isPodSpec: Check = (spec) =>
  isObject(spec) &&
  optional(spec["nodeName"], isString) &&
  optional(spec["nodeSelector"], isStringMap) &&
  optional(spec["tolerations"], isTolerations) &&
  isContainers(spec["containers"]) &&
  hasCocoonTolerationKey(spec["tolerations"] as WatchedPod["spec"]["tolerations"]);

const isPodStatus: Check = (status) =>
  isObject(status) &&
  optional(status["phase"], isString) &&
  optional(status["podIP"], isString) &&
  optional(status["podIPs"], isPodIPs) &&
  optional(status["startTime"], isTime) &&
  optional(status["conditions"], isConditions) &&
  optional(status["containerStatuses"], isContainerStatuses);

/**
 * The pod `raw` as a {@link WatchedPod} when it passes every check of `WatchedPodSchema`, its
 * missing `apiVersion` and `kind` filled in place (the object is the watch's own, fresh from the
 * server's JSON); `undefined` when it does not, leaving `raw` untouched, so that the schema can
 * say why.
 *
 * @internal
 */
export function acceptWatchedPod(raw: unknown): WatchedPod | undefined {
  if (!isObject(raw)) return undefined;
  const { apiVersion, kind } = raw;
  if (
    !(apiVersion === undefined || apiVersion === "v1") ||
    !(kind === undefined || kind === "Pod") ||
    !isPodMetadata(raw["metadata"]) ||
    !isPodSpec(raw["spec"]) ||
    !optional(raw["status"], isPodStatus)
  )
    return undefined;
  if (apiVersion === undefined) raw["apiVersion"] = "v1";
  if (kind === undefined) raw["kind"] = "Pod";
  return raw as WatchedPod;
}
