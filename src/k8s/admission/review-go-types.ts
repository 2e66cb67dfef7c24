// k8s.io/api/admission/v1's AdmissionReview as encoding/json sees it, field for field (a
// declarative table, checked against reflection on the Go types by the conformance suite).
import {
  BOOL,
  BYTES,
  INT32,
  INT64,
  RAW,
  STRING,
  TYPE_META,
  always,
  map,
  oe,
  ptr,
  slice,
  struct,
  type GoType,
} from "../../internal/go/index.js";

const groupVersionKind = struct(always("group", STRING), always("version", STRING), always("kind", STRING));
const groupVersionResource = struct(always("group", STRING), always("version", STRING), always("resource", STRING));

/** authenticationv1.UserInfo. */
const userInfo = struct(oe("username", STRING), oe("uid", STRING), oe("groups", slice(STRING)), oe("extra", map(slice(STRING))));

/** admissionv1.AdmissionRequest. */
const admissionRequest = struct(
  always("uid", STRING),
  always("kind", groupVersionKind),
  always("resource", groupVersionResource),
  oe("subResource", STRING),
  oe("requestKind", ptr(groupVersionKind)),
  oe("requestResource", ptr(groupVersionResource)),
  oe("requestSubResource", STRING),
  oe("name", STRING),
  oe("namespace", STRING),
  always("operation", STRING),
  always("userInfo", userInfo),
  oe("object", RAW),
  oe("oldObject", RAW),
  oe("dryRun", ptr(BOOL)),
  oe("options", RAW),
);

/** metav1.Status. */
const status = struct(
  ...TYPE_META,
  oe(
    "metadata",
    struct(oe("selfLink", STRING), oe("resourceVersion", STRING), oe("continue", STRING), oe("remainingItemCount", ptr(INT64))),
  ),
  oe("status", STRING),
  oe("message", STRING),
  oe("reason", STRING),
  oe(
    "details",
    ptr(
      struct(
        ...["name", "group", "kind", "uid"].map((name) => oe(name, STRING)),
        oe("causes", slice(struct(oe("reason", STRING), oe("message", STRING), oe("field", STRING)))),
        oe("retryAfterSeconds", INT32),
      ),
    ),
  ),
  oe("code", INT32),
);

/** admissionv1.AdmissionResponse. */
export const ADMISSION_RESPONSE: GoType = struct(
  always("uid", STRING),
  always("allowed", BOOL),
  oe("status", ptr(status)),
  oe("patch", BYTES),
  oe("patchType", ptr(STRING)),
  oe("auditAnnotations", map(STRING)),
  oe("warnings", slice(STRING)),
);

/**
 * admissionv1.AdmissionReview.
 *
 * @internal
 */
export const ADMISSION_REVIEW: GoType = struct(...TYPE_META, oe("request", ptr(admissionRequest)), oe("response", ptr(ADMISSION_RESPONSE)));
