// The `admission.k8s.io/v1` wire types the admission helpers read and write.

/** A group/version/kind, as in `request.kind`. */
export interface GroupVersionKind {
  /** API group, `""` for the core group. */
  group: string;
  /** API version, e.g. `v1`. */
  version: string;
  /** Kind, e.g. `CocoonSet`. */
  kind: string;
}

/** A group/version/resource, as in `request.resource`. */
export interface GroupVersionResource {
  /** API group, `""` for the core group. */
  group: string;
  /** API version, e.g. `v1`. */
  version: string;
  /** Plural resource name, e.g. `cocoonsets`. */
  resource: string;
}

/** The user that made the request. */
export interface AdmissionUserInfo {
  /** The user's name. */
  username?: string;
  /** The user's unique ID. */
  uid?: string;
  /** Groups the user belongs to. */
  groups?: string[];
  /** Additional authenticator-provided information. */
  extra?: Record<string, string[]>;
}

/**
 * The request part of an `AdmissionReview`, as the apiserver sends it.
 *
 * Only `uid` is checked when decoding (a string, `""` when absent); the other fields, and any
 * field not listed here, are passed through unvalidated.
 */
export interface AdmissionRequest {
  /** Identifies this admission call; copied into the response. */
  uid: string;
  /** Kind of the object being admitted. */
  kind?: GroupVersionKind;
  /** Resource being requested. */
  resource?: GroupVersionResource;
  /** Subresource being requested, if any (e.g. `status`). */
  subResource?: string;
  /** Kind of the original request, when it was converted. */
  requestKind?: GroupVersionKind;
  /** Resource of the original request, when it was converted. */
  requestResource?: GroupVersionResource;
  /** Subresource of the original request, when it was converted. */
  requestSubResource?: string;
  /** Name of the object (may be empty on CREATE with `generateName`). */
  name?: string;
  /** Namespace of the object, if namespaced. */
  namespace?: string;
  /** `CREATE`, `UPDATE`, `DELETE` or `CONNECT`. */
  operation?: string;
  /** Who made the request. */
  userInfo?: AdmissionUserInfo;
  /** The object being admitted (absent for DELETE). */
  object?: unknown;
  /** The existing object (UPDATE and DELETE). */
  oldObject?: unknown;
  /** Whether the request is a dry run. */
  dryRun?: boolean;
  /** The operation's options object (e.g. `CreateOptions`). */
  options?: unknown;
}

/** A `metav1.Status` as carried in a denial. */
export interface AdmissionStatus {
  /** List metadata; `{}` in a denial. */
  metadata?: Record<string, unknown>;
  /** `Success` or `Failure`; absent in Go's denials. */
  status?: string;
  /** Human-readable reason shown to the user. */
  message?: string;
  /** Machine-readable reason, e.g. `Forbidden`. */
  reason?: string;
  /** Extended data about the reason. */
  details?: unknown;
  /** Suggested HTTP code; absent in Go's denials. */
  code?: number;
}

/** The response part of an `AdmissionReview` (`admissionv1.AdmissionResponse`). */
export interface AdmissionResponse {
  /** Copied from the request by the handler; whatever is set here is overwritten. */
  uid: string;
  /** Whether the request is admitted. */
  allowed: boolean;
  /** Why the request was denied. */
  status?: AdmissionStatus | undefined;
  /** A base64-encoded JSON patch (mutating webhooks). */
  patch?: string | undefined;
  /** `JSONPatch` when `patch` is set. */
  patchType?: string | undefined;
  /** Annotations for the audit log, keyed without the webhook prefix. */
  auditAnnotations?: Record<string, string> | undefined;
  /** Warnings shown to the API client. */
  warnings?: string[] | undefined;
}

/** An `admission.k8s.io/v1` `AdmissionReview`: a request in, the same review with a response out. */
export interface AdmissionReview {
  /** `admission.k8s.io/v1`, echoed as received. */
  apiVersion?: string;
  /** `AdmissionReview`, echoed as received. */
  kind?: string;
  /** What the apiserver asks about. */
  request?: AdmissionRequest;
  /** The webhook's verdict. */
  response?: AdmissionResponse;
}
