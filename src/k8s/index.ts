/**
 * The Kubernetes side of the contract, on `@kubernetes/client-node`: clients that reuse
 * connections, annotation and diff patches with Go's short-circuits, the seat release, CRD
 * install, error inspection, kubeconfig loading, status conditions, env and time helpers, node IP
 * detection and an admission webhook handler for `node:http`.
 *
 * Every helper takes client-node API clients structurally: {@link createClients}'s keep-alive
 * clients, or `{ core: kc.makeApiClient(CoreV1Api), customObjects: kc.makeApiClient(CustomObjectsApi) }`.
 *
 * @module
 */
export { CocoonError, isCocoonError } from "../errors.js";
export type { CocoonErrorCode } from "../errors.js";
export { createClients } from "./clients.js";
export type { CocoonClients, CreateClientsOptions } from "./clients.js";
export { keepAliveAuthentication } from "./keep-alive-authentication.js";
export type { KeepAliveAuthentication, KeepAliveOptions } from "./keep-alive-authentication.js";
export { patchAnnotations } from "./patch/annotations.js";
export type { AnnotationPatchOptions } from "./patch/annotations.js";
export { patchCocoonSetGeneration, patchHibernateState, patchHibernatedOnNode, patchKeepSnapshotOnDelete } from "./patch/contracts.js";
export type { CocoonSetPatchClients, PodPatchClients } from "./patch/contracts.js";
export { patch, patchStatus } from "./patch/clientpatch.js";
export type { Mutation, PatchOptions } from "./patch/clientpatch.js";
export type { AnnotationClients, KubeObject, PatchClients } from "./patch/target.js";
export { releaseSeat } from "./release-seat.js";
export type { ReleaseSeatClients, ReleaseSeatOptions, ReleaseSeatResult } from "./release-seat.js";
export type { Logger } from "./logger.js";
export { createHttpsTransport } from "./https-transport.js";
export { installCRDs } from "./install-crds.js";
export type { InstallCRDsClients, InstallCRDsOptions } from "./install-crds.js";
export { isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound, statusCode, statusMessage, statusReason } from "./api-errors.js";
export { loadKubeConfig } from "./load-kube-config.js";
export type { LoadKubeConfigOptions } from "./load-kube-config.js";
export { ConditionStatus } from "../apis/v1/condition-status.js";
export {
  CONDITION_TYPE_READY,
  findStatusCondition,
  formatConditionTime,
  isStatusConditionTrue,
  newReadyCondition,
  setStatusCondition,
} from "./conditions.js";
export type { Condition } from "./conditions.js";
export { envBool, envOrDefault } from "./env.js";
export type { Env } from "./env.js";
export { runTicker, sleep } from "./time.js";
export { NoNodeIPError, detectNodeIP } from "./node-ip.js";
export type { NetworkInterfaceMap } from "./node-ip.js";
export { DEFAULT_MAX_BODY, allow, deny } from "./admission/response.js";
export { decodeAdmissionReview } from "./admission/decode.js";
export { admissionHandler } from "./admission/handler.js";
// eslint-disable-next-line @typescript-eslint/no-deprecated -- AdmissionLogger stays exported, deprecated, until the next minor
export type { AdmissionHandlerFunc, AdmissionHandlerOptions, AdmissionLogger, AdmissionResult } from "./admission/handler.js";
export type {
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  AdmissionStatus,
  AdmissionUserInfo,
  GroupVersionKind,
  GroupVersionResource,
} from "./admission/types.js";
